import { randomBytes } from "node:crypto";
import { type Kysely, type Selectable, sql } from "kysely";
import type { AccountsTable, KeysTables } from "../../db/schema.js";
import type { AccountPosition } from "../accounts/cursor.js";

export type AccountRow = Selectable<AccountsTable>;

export function newAccountId(): string {
  return `acct_${randomBytes(12).toString("hex")}`;
}

export async function insertAccount(
  db: Kysely<KeysTables>,
  values: { id: string; name: string },
): Promise<AccountRow> {
  return db.insertInto("accounts").values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findAccount(db: Kysely<KeysTables>, id: string): Promise<AccountRow | undefined> {
  return db.selectFrom("accounts").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function updateAccountScope(
  db: Kysely<KeysTables>,
  id: string,
  scope: { allowed_providers: string[] | null; allowed_models: string[] | null },
): Promise<AccountRow | undefined> {
  return db.updateTable("accounts").set(scope).where("id", "=", id).returningAll().executeTakeFirst();
}

/**
 * Accounts newest first (created_at, then id: a total order), after a keyset position: the operator's
 * listing, served by accounts_listing_idx. The row's exact created_at comes back for the next cursor.
 */
export async function listAccounts(
  db: Kysely<KeysTables>,
  page: { after?: AccountPosition | undefined; limit: number },
): Promise<Array<AccountRow & { position_at: string }>> {
  let query = db
    .selectFrom("accounts")
    .selectAll()
    .select(
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as("position_at"),
    );
  const after = page.after;
  if (after !== undefined) {
    query = query.where(sql<boolean>`(created_at, id) < (${after.at}::timestamptz, ${after.id})`);
  }
  return query.orderBy("created_at", "desc").orderBy("id", "desc").limit(page.limit).execute();
}
