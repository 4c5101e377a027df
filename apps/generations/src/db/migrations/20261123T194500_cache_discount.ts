import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// Migrations never import app types: they describe the schema as it was on the day they were written.
export const cacheDiscount: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // OpenRouter's `cache_discount` in USD: null where nothing was cached or written (and for rows
    // recorded before the usage event carried it), so "no caching" and "caching saved 0" stay apart.
    await db.schema.alterTable("generations").addColumn("cache_discount", sql`numeric(38,12)`).execute();
  },
};
