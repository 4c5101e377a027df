import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Migrations never import app types: they describe the schema as it was on the day they were written.
export const webSearch: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // The web plugin (issue 32), as OpenRouter's generation record shows it: `web_search_engine`
    // ("native" or "exa") and `num_search_results` (the provider's searches, or the results given to the
    // model). Null in rows without a billed search, and in rows recorded before the event carried them.
    await db.schema
      .alterTable("generations")
      .addColumn("web_search_engine", "text")
      .addColumn("num_search_results", "integer")
      .execute();
  },
};
