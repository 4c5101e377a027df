import { type Kysely, type Selectable, sql } from "kysely";
import type { KeysTables, WalletAccountsTable, WalletNamespace } from "../../db/schema.js";

export type WalletAccountRow = Selectable<WalletAccountsTable>;

export interface WalletRef {
  namespace: WalletNamespace;
  address: string;
}

/**
 * Serialises sign-ins of one wallet across every replica for the rest of the transaction, so two
 * first sign-ins at once create one account, not two (or a unique-violation 500).
 */
export async function lockWallet(db: Kysely<KeysTables>, wallet: WalletRef): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`wallet:${wallet.namespace}:${wallet.address}`}, 0))`.execute(
    db,
  );
}

export async function findWalletAccount(
  db: Kysely<KeysTables>,
  wallet: WalletRef,
): Promise<WalletAccountRow | undefined> {
  return db
    .selectFrom("wallet_accounts")
    .selectAll()
    .where("namespace", "=", wallet.namespace)
    .where("address", "=", wallet.address)
    .executeTakeFirst();
}

export async function findWalletAccountById(
  db: Kysely<KeysTables>,
  accountId: string,
): Promise<WalletAccountRow | undefined> {
  return db.selectFrom("wallet_accounts").selectAll().where("account_id", "=", accountId).executeTakeFirst();
}

export async function insertWalletAccount(
  db: Kysely<KeysTables>,
  values: WalletRef & { account_id: string; key_hash: string },
): Promise<WalletAccountRow> {
  return db.insertInto("wallet_accounts").values(values).returningAll().executeTakeFirstOrThrow();
}

export async function markWalletSeen(db: Kysely<KeysTables>, wallet: WalletRef, at: Date): Promise<void> {
  await db
    .updateTable("wallet_accounts")
    .set({ last_seen_at: at })
    .where("namespace", "=", wallet.namespace)
    .where("address", "=", wallet.address)
    .execute();
}

export async function setWalletKey(
  db: Kysely<KeysTables>,
  wallet: WalletRef,
  keyHash: string,
): Promise<void> {
  await db
    .updateTable("wallet_accounts")
    .set({ key_hash: keyHash })
    .where("namespace", "=", wallet.namespace)
    .where("address", "=", wallet.address)
    .execute();
}

export async function isNonceUsed(
  db: Kysely<KeysTables>,
  wallet: WalletRef,
  nonce: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("siwx_nonces")
    .select("nonce")
    .where("namespace", "=", wallet.namespace)
    .where("address", "=", wallet.address)
    .where("nonce", "=", nonce)
    .executeTakeFirst();
  return row !== undefined;
}

/** Marks the nonce used; false when another sign-in (any replica) used it first. */
export async function consumeNonce(
  db: Kysely<KeysTables>,
  wallet: WalletRef,
  nonce: string,
  expiresAt: Date,
): Promise<boolean> {
  const inserted = await db
    .insertInto("siwx_nonces")
    .values({ namespace: wallet.namespace, address: wallet.address, nonce, expires_at: expiresAt })
    .onConflict((conflict) => conflict.doNothing())
    .returning("nonce")
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Forgets a bounded batch of nonces whose messages are outside the window, so the table stays small. */
export async function sweepExpiredNonces(db: Kysely<KeysTables>, limit = 100): Promise<void> {
  await sql`delete from siwx_nonces where ctid in (
    select ctid from siwx_nonces where expires_at < now() limit ${limit} for update skip locked)`.execute(db);
}

/** Raises the implicit key's token version: every wallet JWT issued before is revoked. */
export async function bumpWalletTokenVersion(
  db: Kysely<KeysTables>,
  keyHash: string,
): Promise<number | undefined> {
  const row = await db
    .updateTable("api_keys")
    .set((eb) => ({
      wallet_token_version: eb(eb.fn.coalesce("wallet_token_version", sql<number>`0`), "+", 1),
      updated_at: sql<Date>`now()`,
    }))
    .where("hash", "=", keyHash)
    .returning("wallet_token_version")
    .executeTakeFirst();
  return row?.wallet_token_version ?? undefined;
}
