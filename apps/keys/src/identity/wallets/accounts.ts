import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { KeysTables } from "../../db/schema.js";
import { insertAccount, newAccountId } from "../repositories/accounts.js";
import { type ApiKeyRow, findLiveKey, insertApiKey } from "../repositories/api-keys.js";
import {
  findWalletAccount,
  insertWalletAccount,
  markWalletSeen,
  setWalletKey,
  type WalletRef,
} from "../repositories/wallets.js";
import { type CreationRequest, takeCreationSlot } from "./creation-limits.js";

/**
 * The wallet's account and implicit key, created on first use (zero credits). Shared by sign-in and,
 * later, x402 payments ("the first sign-in or payment creates the wallet's account"); the caller holds
 * the wallet's advisory lock (lockWallet) in the same transaction. A new account takes a slot of the
 * creation limits (creation-limits.ts) first; an existing one is only marked as seen (the sweep of
 * unused accounts spares wallets seen recently).
 */
export async function ensureWalletAccount(
  trx: Kysely<KeysTables>,
  claim: WalletRef,
  creation: CreationRequest,
): Promise<{ accountId: string; key: ApiKeyRow; created: boolean }> {
  const existing = await findWalletAccount(trx, claim);
  if (existing) {
    await markWalletSeen(trx, claim, creation.now);
    const key = await findLiveKey(trx, existing.key_hash);
    if (key) return { accountId: existing.account_id, key, created: false };
    // The operator deleted the implicit key (revoking every token): the wallet gets a fresh one.
    const fresh = await insertImplicitKey(trx, existing.account_id, claim);
    await setWalletKey(trx, claim, fresh.hash);
    return { accountId: existing.account_id, key: fresh, created: false };
  }
  await takeCreationSlot(trx, creation);
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
  claim: WalletRef,
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

function walletName(claim: WalletRef): string {
  return `wallet ${claim.namespace}:${claim.address}`;
}
