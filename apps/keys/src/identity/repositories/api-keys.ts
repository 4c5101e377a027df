import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import { sql } from "kysely";
import type { ApiKeysTable, KeysTables } from "../../db/schema.js";

export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewApiKeyRow = Insertable<ApiKeysTable>;
export type ApiKeyChanges = Omit<Updateable<ApiKeysTable>, "hash" | "account_id" | "key_type" | "created_at">;

export async function insertApiKey(db: Kysely<KeysTables>, values: NewApiKeyRow): Promise<ApiKeyRow> {
  return db.insertInto("api_keys").values(values).returningAll().executeTakeFirstOrThrow();
}

/** Any live (not deleted) key: what authentication looks at. */
export async function findLiveKey(db: Kysely<KeysTables>, hash: string): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom("api_keys")
    .selectAll()
    .where("hash", "=", hash)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/**
 * A live API key of the given account. The account filter is part of the query, so a key of another
 * account is indistinguishable from one that does not exist.
 */
export async function findManagedKey(
  db: Kysely<KeysTables>,
  accountId: string,
  hash: string,
): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom("api_keys")
    .selectAll()
    .where("hash", "=", hash)
    .where("account_id", "=", accountId)
    .where("key_type", "=", "regular")
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

export interface ListKeysQuery {
  accountId: string;
  includeDisabled: boolean;
  offset: number;
  limit: number;
}

export async function listManagedKeys(db: Kysely<KeysTables>, query: ListKeysQuery): Promise<ApiKeyRow[]> {
  let select = db
    .selectFrom("api_keys")
    .selectAll()
    .where("account_id", "=", query.accountId)
    .where("key_type", "=", "regular")
    .where("deleted_at", "is", null);
  if (!query.includeDisabled) select = select.where("disabled", "=", false);
  return select.orderBy("created_at").orderBy("hash").offset(query.offset).limit(query.limit).execute();
}

export async function updateManagedKey(
  db: Kysely<KeysTables>,
  accountId: string,
  hash: string,
  changes: ApiKeyChanges,
): Promise<ApiKeyRow | undefined> {
  return db
    .updateTable("api_keys")
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .where("hash", "=", hash)
    .where("account_id", "=", accountId)
    .where("key_type", "=", "regular")
    .where("deleted_at", "is", null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Soft delete: the row stays for audit, but nothing finds a deleted key again. An API key by default;
 * `management` for a management key (revoke and rotate).
 */
export async function deleteManagedKey(
  db: Kysely<KeysTables>,
  accountId: string,
  hash: string,
  keyType: "regular" | "management" = "regular",
): Promise<ApiKeyRow | undefined> {
  return db
    .updateTable("api_keys")
    .set({ deleted_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where("hash", "=", hash)
    .where("account_id", "=", accountId)
    .where("key_type", "=", keyType)
    .where("deleted_at", "is", null)
    .returningAll()
    .executeTakeFirst();
}

/** Every live key of the account, management keys included: what an account-wide change affects. */
export async function liveKeyHashes(db: Kysely<KeysTables>, accountId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("api_keys")
    .select("hash")
    .where("account_id", "=", accountId)
    .where("deleted_at", "is", null)
    .execute();
  return rows.map((row) => row.hash);
}
