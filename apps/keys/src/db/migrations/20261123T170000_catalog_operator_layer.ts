import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// The catalogue as data operators change without a deploy. The served tables (providers, models,
// model_endpoints) stay the effective catalogue; what operators changed lives in the override tables
// below and is laid over the release's bundled seed at every start and every change, so it survives
// restarts and new releases. catalog_changes is the history: who, when, what, old -> new.
export const catalogOperatorLayer: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable("models")
      .addColumn("aliases", sql`text[]`, (column) => column.notNull().defaultTo(sql`'{}'`))
      .execute();
    await db.schema
      .alterTable("model_endpoints")
      .addColumn("may_train_on_data", "boolean", (column) => column.notNull().defaultTo(false))
      .execute();

    // Patches are JSON (see apps/keys/src/catalog/overlay.ts): prices as pico-dollar digit strings.
    await db.schema
      .createTable("catalog_model_overrides")
      .addColumn("model_id", "text", (column) => column.primaryKey())
      .addColumn("patch", "jsonb", (column) => column.notNull())
      .addColumn("updated_by", "text", (column) => column.notNull())
      .addColumn("updated_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable("catalog_endpoint_overrides")
      .addColumn("model_id", "text", (column) => column.notNull())
      .addColumn("provider_id", "text", (column) => column.notNull())
      .addColumn("patch", "jsonb", (column) => column.notNull())
      .addColumn("updated_by", "text", (column) => column.notNull())
      .addColumn("updated_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint("catalog_endpoint_overrides_pkey", ["model_id", "provider_id"])
      .execute();
    await db.schema
      .createTable("catalog_aliases")
      .addColumn("alias", "text", (column) => column.primaryKey())
      .addColumn("model_id", "text", (column) => column.notNull())
      .addColumn("updated_by", "text", (column) => column.notNull())
      .addColumn("updated_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable("catalog_changes")
      .addColumn("id", "bigserial", (column) => column.primaryKey())
      .addColumn("at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .addColumn("actor", "text", (column) => column.notNull())
      .addColumn("action", "text", (column) => column.notNull())
      // Every field that moved: [{ target, field, old, new }].
      .addColumn("diff", "jsonb", (column) => column.notNull())
      .addColumn("version_before", "text")
      .addColumn("version_after", "text", (column) => column.notNull())
      .execute();

    // The operator credential: only its SHA-256 is kept; the secret is printed once at creation.
    await db.schema
      .createTable("operator_tokens")
      .addColumn("id", "text", (column) => column.primaryKey())
      .addColumn("name", "text", (column) => column.notNull())
      .addColumn("hash", "text", (column) => column.notNull().unique())
      .addColumn("created_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .addColumn("revoked_at", "timestamptz")
      .execute();

    // Prices set with `gw catalog price` before this layer existed become endpoint overrides.
    await sql`
      insert into catalog_endpoint_overrides (model_id, provider_id, patch, updated_by, updated_at)
      select model_id, provider_id,
        jsonb_strip_nulls(jsonb_build_object(
          'upstreamModel', upstream_model,
          'contextLength', context_length,
          'maxCompletionTokens', max_completion_tokens,
          'pricing', jsonb_build_object(
            'promptPico', trunc(prompt_price * 1000000000000)::text,
            'completionPico', trunc(completion_price * 1000000000000)::text,
            'requestPico', trunc(request_price * 1000000000000)::text))),
        'migration:operator_prices', updated_at
      from operator_prices`.execute(db);
    await db.schema.dropTable("operator_prices").execute();
  },
};
