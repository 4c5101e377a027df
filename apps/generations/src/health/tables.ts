import type { ColumnType } from "kysely";

/**
 * One endpoint's attempts in one minute (the health aggregator's buckets), with that minute's
 * histograms: one count per bucket (index = bucket, see histogram.ts), "latency" in ms and "throughput"
 * in tokens/s, dense from bucket 0 to the largest one seen.
 */
export type EndpointHealthMinutesTable = {
  model: string;
  provider_id: string;
  minute: ColumnType<Date, Date, Date>;
  attempts: number;
  failures: number;
  latency_counts: ColumnType<number[], number[] | undefined, number[]>;
  throughput_counts: ColumnType<number[], number[] | undefined, number[]>;
};

export type HealthTables = {
  endpoint_health_minutes: EndpointHealthMinutesTable;
};
