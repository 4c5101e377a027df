import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// Migrations never import app types: they describe the schema as it was on the day they were written.
export const histogramsInMinutes: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // A minute's histograms move into its minute row, one count per bucket in an array per metric
    // (index 0 = the first bucket): a batch updates one row per endpoint and minute instead of one per
    // bucket it touches (about ten), each a heap tuple written (issue 27: rows written per request).
    await db.schema
      .alterTable("endpoint_health_minutes")
      .addColumn("latency_counts", sql`integer[]`, (column) => column.notNull().defaultTo(sql`'{}'`))
      .addColumn("throughput_counts", sql`integer[]`, (column) => column.notNull().defaultTo(sql`'{}'`))
      .execute();
    // The window's buckets carried over; bucket indexes are dense from 0 up to the largest one seen.
    await sql`
      update endpoint_health_minutes m set
        latency_counts = ${carriedOver("latency")}, throughput_counts = ${carriedOver("throughput")}`.execute(
      db,
    );
    await db.schema.dropTable("endpoint_health_histograms").execute();
  },
};

/** One metric's counts of the minute row `m`, from its bucket rows, as an array (empty without any). */
function carriedOver(metric: "latency" | "throughput") {
  return sql`coalesce((
    select array_agg(coalesce(h.count, 0) order by g)
      from generate_series(0, (select max(bucket) from endpoint_health_histograms
                                where metric = ${sql.lit(metric)} and model = m.model
                                  and provider_id = m.provider_id and minute = m.minute)) g
      left join endpoint_health_histograms h
        on h.metric = ${sql.lit(metric)} and h.bucket = g and h.model = m.model
       and h.provider_id = m.provider_id and h.minute = m.minute), '{}')`;
}
