import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// Migrations never import app types: they describe the schema as it was on the day they were written.
export const healthFromRecords: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // Endpoint health is written by the usage consumer in the statement that inserts the records, from
    // the records it inserted: a redelivered event inserts none and adds nothing, so no row per event is
    // kept to tell it apart.
    await db.schema.dropTable("endpoint_health_events").execute();
    // The buckets hold the 30-minute window and the minute being swept: the figures read all of it and
    // the sweep drops one minute a minute, both a sequential scan of a table that small. No query needs
    // an index on the minute; each new bucket paid an entry in it.
    await db.schema.dropIndex("endpoint_health_minutes_minute_idx").execute();
    await db.schema.dropIndex("endpoint_health_histograms_minute_idx").execute();
    // Counters updated in place by every batch: room on each page lets an update stay on its page
    // (a HOT update), which writes no index entry. Applies to pages written from now on.
    for (const table of ["activity_daily", "endpoint_health_minutes", "endpoint_health_histograms"])
      await sql`alter table ${sql.table(table)} set (fillfactor = 70)`.execute(db);
  },
};
