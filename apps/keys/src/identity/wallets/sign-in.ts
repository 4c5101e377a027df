import type { WalletTokens } from "@gw/auth";
import type { Kysely } from "kysely";
import type { KeysTables } from "../../db/schema.js";
import { consumeNonce, isNonceUsed, lockWallet, sweepExpiredNonces } from "../repositories/wallets.js";
import { ensureWalletAccount } from "./accounts.js";
import { checkFields, DEFAULT_WINDOW, type SignInWindow } from "./checks.js";
import { type AccountCreationLimits, DEFAULT_ACCOUNT_CREATION_LIMITS } from "./creation-limits.js";
import { siwxError } from "./failures.js";
import type { SiwxProof } from "./proof.js";
import { verifySignature } from "./signature.js";

/** What wallet sign-in needs; absent (no secret configured) the route answers 503. */
export interface WalletAuthSettings {
  tokens: WalletTokens;
  /** PUBLIC_BASE_URL: its host is the sign-in domain, its origin the URI's. */
  publicBaseUrl: URL;
  window?: SignInWindow;
  /** ACCOUNT_CREATION_*: how many accounts sign-ins and first payments may create; the defaults without. */
  creation?: AccountCreationLimits;
}

/** The 200 body of `POST /v1/x402/auth`. */
export interface SignInResult {
  jwt: string;
  tenant_id: string;
  key_id: string;
  account_id: string;
  expires_at: string;
  /** Whether this sign-in created the wallet's account. */
  created: boolean;
}

/**
 * Checks the proof (fields, nonce, signature) and answers with a wallet JWT, creating the wallet's
 * account and implicit key on the first sign-in. Nothing is written unless every check passed: the
 * nonce is consumed in the same transaction that creates the account.
 */
export async function signIn(
  db: Kysely<KeysTables>,
  settings: WalletAuthSettings,
  proof: SiwxProof,
  now: Date = new Date(),
  /** The caller's address as the edge determined it (TRUSTED_PROXIES), for the creation limit. */
  clientAddress = "unknown",
): Promise<SignInResult> {
  const claim = checkFields(proof.fields, settings.publicBaseUrl, now, settings.window ?? DEFAULT_WINDOW);
  // A cheap read first, so a replayed proof is named as such before the signature is checked; the
  // insert inside the transaction below is what makes the nonce single-use across replicas.
  if (await isNonceUsed(db, claim, claim.nonce)) throw nonceReused();
  await verifySignature(claim, proof.message, proof.signature);
  return db.transaction().execute(async (trx) => {
    await lockWallet(trx, claim);
    if (!(await consumeNonce(trx, claim, claim.nonce, claim.nonceExpiresAt))) throw nonceReused();
    await sweepExpiredNonces(trx);
    // lockWallet above serialises this wallet's sign-ins (and, later, its payments) across replicas.
    const limits = settings.creation ?? DEFAULT_ACCOUNT_CREATION_LIMITS;
    const { accountId, key, created } = await ensureWalletAccount(trx, claim, { limits, clientAddress, now });
    if (key.disabled) throw siwxError("wallet_key_disabled", "this wallet's access is disabled");
    const issued = await settings.tokens.issue({
      subject: claim.accountId,
      tenantId: accountId,
      keyId: key.hash,
      tokenVersion: key.wallet_token_version ?? 0,
    });
    return {
      jwt: issued.jwt,
      tenant_id: accountId,
      key_id: key.hash,
      account_id: claim.accountId,
      expires_at: issued.expiresAt.toISOString(),
      created,
    };
  });
}

function nonceReused() {
  return siwxError("invalid_siwx_nonce_reused", "this nonce was already used by this address");
}
