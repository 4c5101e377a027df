import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// Migrations never import app types: they describe the schema as it was on the day they were written.
export const webSearchCost: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // What the web plugin's searches cost (issue 32), USD: the part of `cost` that is neither upstream
    // cost, shown as cost_details.upstream_inference_web_search_cost. 0 without a billed search, and in
    // rows recorded before the usage event carried it.
    await db.schema
      .alterTable("generations")
      .addColumn("web_search_cost", sql`numeric(38,12)`, (column) => column.notNull().defaultTo(0))
      .execute();
  },
};
