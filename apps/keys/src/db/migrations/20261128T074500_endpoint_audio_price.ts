import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// Issue 32: an input audio token's price where the provider prices audio apart from text (Gemini Flash,
// OpenAI's audio models), USD per token like the other prices. 0 (the rows before): audio tokens are
// billed at the prompt price.
export const endpointAudioPrice: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable("model_endpoints")
      .addColumn("audio_price", sql`numeric(38,12)`, (column) => column.notNull().defaultTo(0))
      .execute();
  },
};
