import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

const usd = sql`numeric(38,12)`;

// Migrations never import app types: they describe the schema as it was on the day they were written.
export const activity: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // An app is its HTTP-Referer's origin; the serial id is OpenRouter's integer app_id. No title here:
    // apps are shared by every account, so nothing one account sends may change what another sees.
    await db.schema
      .createTable("apps")
      .addColumn("id", "serial", (column) => column.primaryKey())
      .addColumn("origin", "text", (column) => column.notNull().unique())
      .addColumn("created_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .alterTable("generations")
      .addColumn("http_referer", "text")
      .addColumn("app_title", "text")
      .addColumn("app_id", "integer", (column) => column.references("apps.id"))
      .execute();

    // The activity rollup: one row per account, UTC day, model, provider, key and app (0: none, as a key
    // column cannot be null), kept by the usage consumer in the transaction that inserts the generation.
    await db.schema
      .createTable("activity_daily")
      .addColumn("account_id", "text", (column) => column.notNull())
      .addColumn("day", "date", (column) => column.notNull())
      .addColumn("model", "text", (column) => column.notNull())
      .addColumn("provider", "text", (column) => column.notNull())
      .addColumn("key_hash", "text", (column) => column.notNull())
      .addColumn("app_id", "integer", (column) => column.notNull())
      .addColumn("requests", "bigint", (column) => column.notNull())
      .addColumn("prompt_tokens", "bigint", (column) => column.notNull())
      .addColumn("completion_tokens", "bigint", (column) => column.notNull())
      .addColumn("reasoning_tokens", "bigint", (column) => column.notNull())
      .addColumn("usage", usd, (column) => column.notNull())
      .addColumn("byok_usage_inference", usd, (column) => column.notNull())
      .addPrimaryKeyConstraint("activity_daily_pkey", [
        "account_id",
        "day",
        "model",
        "provider",
        "key_hash",
        "app_id",
      ])
      .execute();
  },
};
