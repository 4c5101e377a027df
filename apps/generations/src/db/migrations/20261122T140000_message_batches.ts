import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// Migrations never import app types: they describe the schema as it was on the day they were written.
export const messageBatches: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable("message_batches")
      .addColumn("id", "text", (column) => column.primaryKey())
      .addColumn("account_id", "text", (column) => column.notNull())
      .addColumn("key_hash", "text", (column) => column.notNull())
      .addColumn("created_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .addColumn("expires_at", "timestamptz", (column) => column.notNull())
      .addColumn("ended_at", "timestamptz")
      .addColumn("cancel_initiated_at", "timestamptz")
      .execute();
    await db.schema
      .createIndex("message_batches_account")
      .on("message_batches")
      .columns(["account_id", "created_at"])
      .execute();
    await db.schema
      .createTable("message_batch_items")
      .addColumn("id", "bigserial", (column) => column.primaryKey())
      .addColumn("batch_id", "text", (column) =>
        column.notNull().references("message_batches.id").onDelete("cascade"),
      )
      .addColumn("custom_id", "text", (column) => column.notNull())
      .addColumn("params", "jsonb", (column) => column.notNull())
      // pending | running | succeeded | errored | canceled | expired
      .addColumn("state", "text", (column) => column.notNull().defaultTo("pending"))
      .addColumn("lease_until", "timestamptz")
      .addColumn("result", "jsonb")
      .addUniqueConstraint("message_batch_items_custom_id", ["batch_id", "custom_id"])
      .execute();
    await db.schema
      .createIndex("message_batch_items_open")
      .on("message_batch_items")
      .columns(["state", "lease_until"])
      .where(sql.ref("state"), "in", ["pending", "running"])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable("message_batch_items").execute();
    await db.schema.dropTable("message_batches").execute();
  },
};
