import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// BYOK: an account's own provider keys, sealed with AES-256-GCM (iv, tag and ciphertext stored apart).
export const providerCredentials: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable("provider_credentials")
      .addColumn("id", "text", (column) => column.primaryKey())
      .addColumn("account_id", "text", (column) => column.notNull().references("accounts.id"))
      .addColumn("provider_id", "text", (column) => column.notNull())
      .addColumn("name", "text", (column) => column.notNull())
      .addColumn("label", "text", (column) => column.notNull())
      .addColumn("iv", "bytea", (column) => column.notNull())
      .addColumn("auth_tag", "bytea", (column) => column.notNull())
      .addColumn("ciphertext", "bytea", (column) => column.notNull())
      .addColumn("position", "integer", (column) => column.notNull().check(sql`position >= 0`))
      .addColumn("created_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .addColumn("updated_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .execute();
    // One credential per provider per account: which of two keys to use would be a guess.
    await db.schema
      .createIndex("provider_credentials_account_provider_idx")
      .on("provider_credentials")
      .columns(["account_id", "provider_id"])
      .unique()
      .execute();
  },
};
