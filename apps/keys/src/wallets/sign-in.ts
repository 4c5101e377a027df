import { createHash, randomBytes } from "node:crypto";
import type { WalletTokens } from "@gw/auth";
import type { Kysely } from "kysely";
import type { KeysTables } from "../db/schema.js";
import { insertAccount, newAccountId } from "../repositories/accounts.js";
import { type ApiKeyRow, findLiveKey, insertApiKey } from "../repositories/api-keys.js";
import {
  consumeNonce,
  findWalletAccount,
  insertWalletAccount,
  isNonceUsed,
  lockWallet,
  setWalletKey,
  sweepExpiredNonces,
} from "../repositories/wallets.js";
import { checkFields, DEFAULT_WINDOW, type SignInClaim, type SignInWindow } from "./checks.js";
import { siwxError } from "./failures.js";
import type { SiwxProof } from "./proof.js";
import { verifySignature } from "./signature.js";

/** What wallet sign-in needs; absent (no secret configured) the route answers 503. */
export interface WalletAuthSettings {
  tokens: WalletTokens;
  /** PUBLIC_BASE_URL: its host is the sign-in domain, its origin the URI's. */
  publicBaseUrl: URL;
  window?: SignInWindow;
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
    const { accountId, key, created } = await ensureWalletAccount(trx, claim);
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

async function ensureWalletAccount(
  trx: Kysely<KeysTables>,
  claim: SignInClaim,
): Promise<{ accountId: string; key: ApiKeyRow; created: boolean }> {
  const existing = await findWalletAccount(trx, claim);
  if (existing) {
    const key = await findLiveKey(trx, existing.key_hash);
    if (key) return { accountId: existing.account_id, key, created: false };
    // The operator deleted the implicit key (revoking every token): the wallet gets a fresh one.
    const fresh = await insertImplicitKey(trx, existing.account_id, claim);
    await setWalletKey(trx, claim, fresh.hash);
    return { accountId: existing.account_id, key: fresh, created: false };
  }
  const account = await insertAccount(trx, { id: newAccountId(), name: walletName(claim) });
  const key = await insertImplicitKey(trx, account.id, claim);
  await insertWalletAccount(trx, {
    namespace: claim.namespace,
    address: claim.address,
    account_id: account.id,
    key_hash: key.hash,
  });
  return { accountId: account.id, key, created: true };
}

/**
 * The key a wallet's usage, limits and generations are attributed to. Its id is the hash of a random
 * secret nobody ever sees, so it can only be reached through a wallet JWT naming it.
 */
async function insertImplicitKey(
  trx: Kysely<KeysTables>,
  accountId: string,
  claim: SignInClaim,
): Promise<ApiKeyRow> {
  return insertApiKey(trx, {
    hash: createHash("sha256").update(randomBytes(32)).digest("hex"),
    account_id: accountId,
    key_type: "regular",
    name: walletName(claim),
    label: `wallet ${claim.address.slice(0, 6)}...${claim.address.slice(-4)}`,
    limit: null,
    limit_reset: null,
    allowed_providers: null,
    allowed_models: null,
    expires_at: null,
    created_by: null,
    deleted_at: null,
    wallet_token_version: 0,
  });
}

function walletName(claim: SignInClaim): string {
  return `wallet ${claim.namespace}:${claim.address}`;
}
