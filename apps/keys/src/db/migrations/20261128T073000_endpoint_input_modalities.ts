import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// Issue 32: what each endpoint's model reads (text, image, file, audio), from the catalogue's source
// (LiteLLM's supports_vision / supports_pdf_input / audio flags), so the edge prefers endpoints that
// take the media a request sends. Rows written before hold text only; the next start's seed (or an
// import) fills them in.
export const endpointInputModalities: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable("model_endpoints")
      .addColumn("input_modalities", sql`text[]`, (column) => column.notNull().defaultTo(sql`'{text}'`))
      .execute();
  },
};
