import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// Measured endpoint health (apps/generations/src/health), moved here from the keys schema (whose tables
// keys drops in its own 20261127T173000_drop_endpoint_health): per endpoint and minute, the attempts and the
// provider's failures, and fixed histogram buckets for time to first token and throughput. Counts are
// added with upserts, so several aggregator instances (consumer-group members) write the same rows;
// rows older than the 30-minute window are swept by the aggregator. They start empty: the figures are a
// derived 30-minute window of the usage events, so nothing is copied from the keys schema.
export const endpointHealth: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable("endpoint_health_minutes")
      .addColumn("model", "text", (column) => column.notNull())
      .addColumn("provider_id", "text", (column) => column.notNull())
      .addColumn("minute", "timestamptz", (column) => column.notNull())
      .addColumn("attempts", "integer", (column) => column.notNull())
      .addColumn("failures", "integer", (column) => column.notNull())
      .addPrimaryKeyConstraint("endpoint_health_minutes_pkey", ["model", "provider_id", "minute"])
      .execute();
    await db.schema
      .createTable("endpoint_health_histograms")
      .addColumn("model", "text", (column) => column.notNull())
      .addColumn("provider_id", "text", (column) => column.notNull())
      .addColumn("minute", "timestamptz", (column) => column.notNull())
      .addColumn("metric", "text", (column) => column.notNull())
      .addColumn("bucket", "smallint", (column) => column.notNull())
      .addColumn("count", "integer", (column) => column.notNull())
      .addPrimaryKeyConstraint("endpoint_health_histograms_pkey", [
        "model",
        "provider_id",
        "minute",
        "metric",
        "bucket",
      ])
      .execute();
    await db.schema
      .createTable("endpoint_health_events")
      .addColumn("generation_id", "text", (column) => column.primaryKey())
      .addColumn("minute", "timestamptz", (column) => column.notNull())
      .execute();
    for (const table of ["endpoint_health_minutes", "endpoint_health_histograms", "endpoint_health_events"]) {
      await sql`create index ${sql.raw(`${table}_minute_idx`)} on ${sql.table(table)} (minute)`.execute(db);
    }
  },
};
