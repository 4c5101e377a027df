import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

const usd = sql`numeric(38,12)`;

// Prices the operator set for a model at a provider (gw catalog price). Kept apart from the catalogue
// tables, which are re-seeded from the bundled set whenever it changes: these rows are merged into
// every seed, so an operator's model survives a new bundled catalogue and a restart.
export const operatorPrices: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable("operator_prices")
      .addColumn("model_id", "text", (column) => column.notNull())
      .addColumn("provider_id", "text", (column) => column.notNull())
      .addColumn("upstream_model", "text", (column) => column.notNull())
      // USD per token (per request for request_price), as model_endpoints keeps them.
      .addColumn("prompt_price", usd, (column) => column.notNull())
      .addColumn("completion_price", usd, (column) => column.notNull())
      .addColumn("request_price", usd, (column) => column.notNull())
      .addColumn("context_length", "integer")
      .addColumn("max_completion_tokens", "integer")
      .addColumn("updated_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint("operator_prices_pkey", ["model_id", "provider_id"])
      .execute();
  },
};
