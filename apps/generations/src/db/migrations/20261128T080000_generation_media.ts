import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// Migrations never import app types: they describe the schema as it was on the day they were written.
export const generationMedia: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // Issue 32: the media the provider reported (parts of the prompt and completion counts) and their
    // part of the prompt cost (audio at the audio price, images at the per-image price), USD. 0 in rows
    // recorded before the usage event carried them, and where there was none.
    await db.schema
      .alterTable("generations")
      .addColumn("audio_tokens", "integer", (column) => column.notNull().defaultTo(0))
      .addColumn("image_tokens", "integer", (column) => column.notNull().defaultTo(0))
      .addColumn("document_tokens", "integer", (column) => column.notNull().defaultTo(0))
      .addColumn("completion_audio_tokens", "integer", (column) => column.notNull().defaultTo(0))
      .addColumn("audio_cost", sql`numeric(38,12)`, (column) => column.notNull().defaultTo(0))
      .addColumn("image_cost", sql`numeric(38,12)`, (column) => column.notNull().defaultTo(0))
      .execute();
  },
};
