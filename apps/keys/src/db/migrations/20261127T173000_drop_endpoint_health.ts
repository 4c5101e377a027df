import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Endpoint health moved to the generations app (apps/generations/src/health, its migration
// 20261127T173000_endpoint_health), which derives it from the generation records' attempts. The keys
// tables are dropped, not copied over: the figures are a derived 30-minute window of the usage events,
// so the new tables fill from the traffic that follows and are whole again 30 minutes after the
// switch (until then an endpoint shows fewer attempts, or `null` where it had no traffic yet).
export const dropEndpointHealth: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const table of ["endpoint_health_minutes", "endpoint_health_histograms", "endpoint_health_events"]) {
      await db.schema.dropTable(table).ifExists().execute();
    }
  },
};
