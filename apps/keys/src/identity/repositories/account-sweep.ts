import { type Kysely, sql } from "kysely";
import type { KeysTables, WalletNamespace } from "../../db/schema.js";

export interface SweepCandidate {
  namespace: WalletNamespace;
  address: string;
  account_id: string;
  key_hash: string;
}

export async function unusedWalletAccounts(
  db: Kysely<KeysTables>,
  cutoff: Date,
  limit: number,
): Promise<SweepCandidate[]> {
  const result = await sql<SweepCandidate>`
    select w.namespace, w.address, w.account_id, w.key_hash
    from wallet_accounts w
    where ${unusedHere(cutoff)}
    order by w.last_seen_at
    limit ${limit}`.execute(db);
  return result.rows;
}

/**
 * Removes the wallet, its implicit key and its account in one statement, only if the wallet is still
 * unused here (the same condition, read again under the wallet's lock): a replica that got there
 * first, or a sign-in or payment since the candidate was listed, leaves nothing to remove.
 */
export async function deleteUnusedWalletAccount(
  db: Kysely<KeysTables>,
  candidate: SweepCandidate,
  cutoff: Date,
): Promise<boolean> {
  const result = await sql<{ id: string }>`
    with wallet as (
      delete from wallet_accounts w
      where w.namespace = ${candidate.namespace} and w.address = ${candidate.address}
        and w.account_id = ${candidate.account_id} and w.key_hash = ${candidate.key_hash}
        and ${unusedHere(cutoff)}
      returning w.account_id, w.key_hash
    ), keys as (
      delete from api_keys k using wallet where k.hash = wallet.key_hash returning k.hash
    )
    delete from accounts a using wallet, keys where a.id = wallet.account_id returning a.id`.execute(db);
  return result.rows.length > 0;
}

/**
 * What keys alone can tell of "never used": a wallet account not signed in or paid for since
 * `cutoff`, whose only key (live or deleted) is the wallet's implicit one, with no BYOK credential and
 * no scope an operator set. Billing's figures are checked by the caller (accounts/sweep.ts).
 */
function unusedHere(cutoff: Date) {
  return sql`w.last_seen_at < ${cutoff}
    and not exists (select 1 from api_keys k where k.account_id = w.account_id and k.hash <> w.key_hash)
    and not exists (select 1 from provider_credentials c where c.account_id = w.account_id)
    and not exists (
      select 1 from accounts a
      where a.id = w.account_id and (a.allowed_providers is not null or a.allowed_models is not null)
    )`;
}
