import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// Issue 32: an output audio token's price where the provider prices the audio a model speaks apart
// from text (OpenAI's audio models), USD per token like the other prices. 0 (the rows before): audio
// output is billed at the completion price.
export const endpointAudioOutputPrice: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable("model_endpoints")
      .addColumn("audio_output_price", sql`numeric(38,12)`, (column) => column.notNull().defaultTo(0))
      .execute();
  },
};
