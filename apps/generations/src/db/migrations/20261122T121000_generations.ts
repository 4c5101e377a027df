import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

const usd = sql`numeric(38,12)`;

// Migrations never import app types: they describe the schema as it was on the day they were written.
export const generations: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable("generations")
      .addColumn("id", "text", (column) => column.primaryKey())
      .addColumn("account_id", "text", (column) => column.notNull())
      .addColumn("key_hash", "text", (column) => column.notNull())
      .addColumn("model", "text", (column) => column.notNull())
      .addColumn("provider", "text", (column) => column.notNull())
      .addColumn("api_type", "text", (column) => column.notNull())
      .addColumn("streamed", "boolean", (column) => column.notNull())
      .addColumn("cancelled", "boolean", (column) => column.notNull())
      .addColumn("finish_reason", "text")
      .addColumn("native_finish_reason", "text")
      .addColumn("upstream_id", "text")
      .addColumn("created_at", "timestamptz", (column) => column.notNull())
      .addColumn("latency_ms", "integer", (column) => column.notNull())
      .addColumn("generation_time_ms", "integer", (column) => column.notNull())
      .addColumn("is_byok", "boolean", (column) => column.notNull())
      .addColumn("estimated", "boolean", (column) => column.notNull())
      .addColumn("prompt_tokens", "integer", (column) => column.notNull())
      .addColumn("completion_tokens", "integer", (column) => column.notNull())
      .addColumn("total_tokens", "integer", (column) => column.notNull())
      .addColumn("cached_tokens", "integer", (column) => column.notNull())
      .addColumn("cache_write_tokens", "integer", (column) => column.notNull())
      .addColumn("reasoning_tokens", "integer", (column) => column.notNull())
      .addColumn("cost", usd, (column) => column.notNull())
      .addColumn("upstream_inference_cost", usd, (column) => column.notNull())
      .addColumn("upstream_inference_prompt_cost", usd, (column) => column.notNull())
      .addColumn("upstream_inference_completions_cost", usd, (column) => column.notNull())
      .addColumn("attempts", "jsonb", (column) => column.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn("ingested_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .execute();

    // Retention deletes the oldest rows in small batches; this index makes each batch a range scan.
    await db.schema
      .createIndex("generations_created_at_idx")
      .on("generations")
      .column("created_at")
      .execute();
  },
};
