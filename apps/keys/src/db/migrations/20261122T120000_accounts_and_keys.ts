import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// Migrations never import app types: they describe the schema as it was on the day they were written.
export const accountsAndKeys: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable("accounts")
      .addColumn("id", "text", (column) => column.primaryKey())
      .addColumn("name", "text", (column) => column.notNull())
      .addColumn("allowed_providers", sql`text[]`)
      .addColumn("allowed_models", sql`text[]`)
      .addColumn("created_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .execute();

    await db.schema
      .createTable("api_keys")
      .addColumn("hash", "text", (column) => column.primaryKey().check(sql`hash ~ '^[0-9a-f]{64}$'`))
      .addColumn("account_id", "text", (column) => column.notNull().references("accounts.id"))
      .addColumn("key_type", "text", (column) =>
        column.notNull().check(sql`key_type in ('management', 'regular')`),
      )
      .addColumn("name", "text", (column) => column.notNull())
      .addColumn("label", "text", (column) => column.notNull())
      .addColumn("disabled", "boolean", (column) => column.notNull().defaultTo(false))
      .addColumn("limit", sql`numeric(38,12)`, (column) => column.check(sql`"limit" >= 0`))
      .addColumn("limit_reset", "text", (column) =>
        column.check(sql`limit_reset in ('daily', 'weekly', 'monthly')`),
      )
      .addColumn("allowed_providers", sql`text[]`)
      .addColumn("allowed_models", sql`text[]`)
      .addColumn("include_byok_in_limit", "boolean", (column) => column.notNull().defaultTo(false))
      .addColumn("expires_at", "timestamptz")
      .addColumn("created_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .addColumn("updated_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .addColumn("deleted_at", "timestamptz")
      .addColumn("created_by", "text")
      .execute();

    // Listing walks one account's live keys in creation order.
    await db.schema
      .createIndex("api_keys_account_created_idx")
      .on("api_keys")
      .columns(["account_id", "created_at", "hash"])
      .where(sql.ref("deleted_at"), "is", null)
      .execute();
  },
};
