import type { Migrations } from "@gw/db";
import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// Migrations never import the bus's types: they describe the schema as it was on the day they were written.
const outbox: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable("events")
      .addColumn("id", "bigserial", (column) => column.primaryKey())
      .addColumn("topic", "text", (column) => column.notNull())
      .addColumn("key", "text", (column) => column.notNull())
      .addColumn("value", "bytea", (column) => column.notNull())
      .addColumn("headers", "jsonb", (column) => column.notNull().defaultTo(sql`'{}'::jsonb`))
      .addColumn("published_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .execute();
    // Pruning deletes a topic's delivered prefix; this index makes it a range scan.
    await db.schema.createIndex("events_topic_id_idx").on("events").columns(["topic", "id"]).execute();
    await db.schema
      .createTable("group_offsets")
      .addColumn("topic", "text", (column) => column.notNull())
      .addColumn("group_id", "text", (column) => column.notNull())
      .addColumn("delivered_id", "bigint", (column) => column.notNull())
      .addColumn("updated_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint("group_offsets_pkey", ["topic", "group_id"])
      .execute();
  },
};

export const outboxMigrations: Migrations = { "20261123T140000_outbox": outbox };
