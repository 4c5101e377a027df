import { GatewayError } from "@gw/errors";
import type { EnsureWalletAccountResponse } from "@gw/proto/keys/v1/keys";
import type { Kysely } from "kysely";
import { getAddress, isAddress } from "viem";
import type { KeysTables } from "../../db/schema.js";
import { lockWallet, type WalletRef } from "../repositories/wallets.js";
import { ensureWalletAccount } from "./accounts.js";
import { publicKeyOf } from "./checks.js";
import { DEFAULT_ACCOUNT_CREATION_LIMITS } from "./creation-limits.js";
import type { WalletAuthSettings } from "./sign-in.js";

/** A CAIP-10 account id split into the wallet it names and its canonical spelling. */
interface PayerWallet extends WalletRef {
  walletAccountId: string;
}

/**
 * The account a verified x402 payer pays into: created on first use exactly as the first sign-in
 * creates it (same code, same advisory lock, so a sign-in and a payment at once make one account),
 * with a wallet JWT for the `PAYMENT-RESPONSE`. The edge calls this after the facilitator verified
 * the payment and before it settles it, so a settled payment always has an account to go to. A new
 * payer's account counts against the creation limits like a first sign-in: refused (429, nothing
 * settled) when the payer's client address or the gateway is over them.
 */
export async function ensurePayerAccount(
  db: Kysely<KeysTables>,
  settings: WalletAuthSettings | undefined,
  walletAccountId: string,
  clientAddress = "unknown",
  now: Date = new Date(),
): Promise<EnsureWalletAccountResponse> {
  if (!settings)
    throw new GatewayError("service_unavailable", "wallet accounts are not configured on this gateway", {
      code: "wallet_auth_not_configured",
    });
  const wallet = parsePayer(walletAccountId);
  const { accountId, key, created } = await db.transaction().execute(async (trx) => {
    await lockWallet(trx, wallet);
    const limits = settings.creation ?? DEFAULT_ACCOUNT_CREATION_LIMITS;
    return ensureWalletAccount(trx, wallet, { limits, clientAddress, now });
  });
  // PERMISSION_DENIED over gRPC: the edge refuses the payment with 403 before settling it.
  if (key.disabled) throw new GatewayError("permission", "this wallet's access is disabled");
  const issued = await settings.tokens.issue({
    subject: wallet.walletAccountId,
    tenantId: accountId,
    keyId: key.hash,
    tokenVersion: key.wallet_token_version ?? 0,
  });
  return {
    tenantId: accountId,
    keyId: key.hash,
    jwt: issued.jwt,
    expiresAt: issued.expiresAt,
    created,
    walletAccountId: wallet.walletAccountId,
  };
}

/** `eip155:<chain id>:<address>` or `solana:<genesis hash>:<base58 key>`; anything else is refused. */
export function parsePayer(walletAccountId: string): PayerWallet {
  const match = /^(eip155|solana):([-_a-zA-Z0-9]{1,32}):([-_a-zA-Z0-9]{1,128})$/.exec(walletAccountId);
  const [, namespace, reference, address] = match ?? [];
  if (namespace === "eip155" && reference && address && isAddress(address, { strict: false })) {
    const canonical = getAddress(address);
    return { namespace, address: canonical, walletAccountId: `eip155:${reference}:${canonical}` };
  }
  if (namespace === "solana" && reference && address && publicKeyOf(address)) {
    return { namespace, address, walletAccountId };
  }
  throw new GatewayError("invalid_request", `not a CAIP-10 EVM or Solana account id: ${walletAccountId}`);
}
