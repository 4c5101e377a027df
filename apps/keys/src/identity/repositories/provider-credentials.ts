import { randomBytes } from "node:crypto";
import type { Insertable, Kysely, Selectable } from "kysely";
import { sql } from "kysely";
import type { KeysTables, ProviderCredentialsTable } from "../../db/schema.js";

export type CredentialRow = Selectable<ProviderCredentialsTable>;
export type CredentialChanges = Partial<
  Pick<
    ProviderCredentialsTable,
    "name" | "label" | "key_id" | "iv" | "auth_tag" | "ciphertext" | "position"
  > & {
    disabled: boolean;
  }
>;

export function newCredentialId(): string {
  return `byok_${randomBytes(12).toString("hex")}`;
}

/** The account's credentials in the order the edge tries them. */
export async function listCredentials(db: Kysely<KeysTables>, accountId: string): Promise<CredentialRow[]> {
  return db
    .selectFrom("provider_credentials")
    .selectAll()
    .where("account_id", "=", accountId)
    .orderBy("position")
    .orderBy("created_at")
    .execute();
}

/** The account filter is part of every lookup: another account's credential does not exist. */
export async function findCredential(
  db: Kysely<KeysTables>,
  accountId: string,
  id: string,
): Promise<CredentialRow | undefined> {
  return db
    .selectFrom("provider_credentials")
    .selectAll()
    .where("id", "=", id)
    .where("account_id", "=", accountId)
    .executeTakeFirst();
}

export async function findCredentialForProvider(
  db: Kysely<KeysTables>,
  accountId: string,
  providerId: string,
): Promise<CredentialRow | undefined> {
  return db
    .selectFrom("provider_credentials")
    .selectAll()
    .where("account_id", "=", accountId)
    .where("provider_id", "=", providerId)
    .executeTakeFirst();
}

/** Appends after the account's last credential. */
export async function insertCredential(
  db: Kysely<KeysTables>,
  values: Omit<Insertable<ProviderCredentialsTable>, "position">,
): Promise<CredentialRow> {
  const last = await db
    .selectFrom("provider_credentials")
    .select(sql<number>`coalesce(max(position) + 1, 0)`.as("next"))
    .where("account_id", "=", values.account_id)
    .executeTakeFirstOrThrow();
  return db
    .insertInto("provider_credentials")
    .values({ ...values, position: Number(last.next) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateCredential(
  db: Kysely<KeysTables>,
  accountId: string,
  id: string,
  changes: CredentialChanges,
): Promise<CredentialRow | undefined> {
  return db
    .updateTable("provider_credentials")
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .where("id", "=", id)
    .where("account_id", "=", accountId)
    .returningAll()
    .executeTakeFirst();
}

/** Hard delete: a provider key the account withdrew must not survive anywhere, even encrypted. */
export async function deleteCredential(
  db: Kysely<KeysTables>,
  accountId: string,
  id: string,
): Promise<CredentialRow | undefined> {
  return db
    .deleteFrom("provider_credentials")
    .where("id", "=", id)
    .where("account_id", "=", accountId)
    .returningAll()
    .executeTakeFirst();
}

/** One page of the account's credentials, optionally for one provider, and how many there are in all. */
export async function pageCredentials(
  db: Kysely<KeysTables>,
  query: { accountId: string; provider?: string | undefined; offset: number; limit: number },
): Promise<{ rows: CredentialRow[]; total: number }> {
  let select = db.selectFrom("provider_credentials").where("account_id", "=", query.accountId);
  if (query.provider !== undefined) select = select.where("provider_id", "=", query.provider);
  const rows = await select
    .selectAll()
    .orderBy("position")
    .orderBy("created_at")
    .offset(query.offset)
    .limit(query.limit)
    .execute();
  const count = await select.select(sql<string>`count(*)`.as("total")).executeTakeFirstOrThrow();
  return { rows, total: Number(count.total) };
}
