import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { KeysTables } from "../../db/schema.js";
import { type ApiKeyRow, deleteManagedKey } from "./api-keys.js";

// Management keys live in api_keys beside API keys (key_type 'management'); every query here filters
// on the account, so another account's key is indistinguishable from one that does not exist.

/** The account's live management keys, disabled and expired ones included, oldest first. */
export async function listManagementKeys(db: Kysely<KeysTables>, accountId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom("api_keys")
    .selectAll()
    .where("account_id", "=", accountId)
    .where("key_type", "=", "management")
    .where("deleted_at", "is", null)
    .orderBy("created_at")
    .orderBy("hash")
    .execute();
}

export async function findManagementKey(
  db: Kysely<KeysTables>,
  accountId: string,
  hash: string,
): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom("api_keys")
    .selectAll()
    .where("hash", "=", hash)
    .where("account_id", "=", accountId)
    .where("key_type", "=", "management")
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/**
 * Holds the account's row until the transaction ends: two revocations of an account's last two keys
 * run one after the other, so the second sees the first and refuses instead of both succeeding.
 */
export async function lockAccount(db: Kysely<KeysTables>, accountId: string): Promise<boolean> {
  const row = await db
    .selectFrom("accounts")
    .select("id")
    .where("id", "=", accountId)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** How many of the account's management keys other than `exceptHash` can authenticate right now. */
export async function otherUsableManagementKeys(
  db: Kysely<KeysTables>,
  accountId: string,
  exceptHash: string,
): Promise<number> {
  const row = await db
    .selectFrom("api_keys")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("account_id", "=", accountId)
    .where("key_type", "=", "management")
    .where("deleted_at", "is", null)
    .where("disabled", "=", false)
    .where("hash", "!=", exceptHash)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", sql<Date>`now()`)]))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Soft delete, as for API keys: the row stays for audit; authentication never finds it again. */
export function deleteManagementKey(
  db: Kysely<KeysTables>,
  accountId: string,
  hash: string,
): Promise<ApiKeyRow | undefined> {
  return deleteManagedKey(db, accountId, hash, "management");
}
