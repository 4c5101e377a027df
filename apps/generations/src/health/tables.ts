import type { ColumnType } from "kysely";

/** One endpoint's attempts in one minute (the health aggregator's buckets). */
export type EndpointHealthMinutesTable = {
  model: string;
  provider_id: string;
  minute: ColumnType<Date, Date, Date>;
  attempts: number;
  failures: number;
};

/** One histogram bucket's count for one endpoint, minute and metric ("latency" ms, "throughput" tokens/s). */
export type EndpointHealthHistogramsTable = {
  model: string;
  provider_id: string;
  minute: ColumnType<Date, Date, Date>;
  metric: string;
  bucket: number;
  count: number;
};

export type HealthTables = {
  endpoint_health_minutes: EndpointHealthMinutesTable;
  endpoint_health_histograms: EndpointHealthHistogramsTable;
};
