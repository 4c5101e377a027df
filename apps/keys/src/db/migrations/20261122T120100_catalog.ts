import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

const usd = sql`numeric(38,12)`;

// The catalogue's typed source is @gw/catalog; these tables are its seeded copy, which CatalogService
// serves as versioned snapshots and the REST model routes read.
export const catalog: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable("providers")
      .addColumn("id", "text", (column) => column.primaryKey())
      .addColumn("name", "text", (column) => column.notNull())
      .addColumn("api_format", "text", (column) => column.notNull())
      .addColumn("is_demo", "boolean", (column) => column.notNull().defaultTo(false))
      .addColumn("position", "integer", (column) => column.notNull())
      .execute();

    await db.schema
      .createTable("models")
      .addColumn("id", "text", (column) => column.primaryKey())
      .addColumn("name", "text", (column) => column.notNull())
      .addColumn("author", "text", (column) => column.notNull())
      .addColumn("kind", "text", (column) => column.notNull())
      .addColumn("created_unix", "bigint", (column) => column.notNull())
      .addColumn("context_length", "integer", (column) => column.notNull())
      .addColumn("is_free", "boolean", (column) => column.notNull().defaultTo(false))
      .addColumn("limit_requests", "integer")
      .addColumn("limit_interval_seconds", "integer")
      .addColumn("position", "integer", (column) => column.notNull())
      .execute();

    await db.schema
      .createTable("model_endpoints")
      .addColumn("model_id", "text", (column) => column.notNull().references("models.id").onDelete("cascade"))
      .addColumn("provider_id", "text", (column) => column.notNull().references("providers.id"))
      .addColumn("upstream_model", "text", (column) => column.notNull())
      .addColumn("context_length", "integer", (column) => column.notNull())
      .addColumn("max_completion_tokens", "integer", (column) => column.notNull())
      .addColumn("prompt_price", usd, (column) => column.notNull())
      .addColumn("completion_price", usd, (column) => column.notNull())
      .addColumn("request_price", usd, (column) => column.notNull())
      .addColumn("image_price", usd, (column) => column.notNull())
      .addColumn("cache_read_price", usd, (column) => column.notNull())
      .addColumn("cache_write_price", usd, (column) => column.notNull())
      .addColumn("reasoning_price", usd, (column) => column.notNull())
      .addColumn("quantization", "text")
      .addColumn("is_zdr", "boolean", (column) => column.notNull().defaultTo(false))
      .addColumn("supported_parameters", sql`text[]`, (column) => column.notNull().defaultTo(sql`'{}'`))
      .addColumn("position", "integer", (column) => column.notNull())
      .addPrimaryKeyConstraint("model_endpoints_pkey", ["model_id", "provider_id"])
      .execute();

    // One row, so the version can be read and locked without a scan.
    await db.schema
      .createTable("catalog_meta")
      .addColumn("id", "integer", (column) => column.primaryKey().defaultTo(1).check(sql`id = 1`))
      .addColumn("version", "text", (column) => column.notNull())
      .addColumn("updated_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .execute();
  },
};
