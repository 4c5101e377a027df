import { randomBytes } from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import type { AccountsTable, KeysTables } from "../db/schema.js";

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
