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

/** Usage events already counted, so a redelivered event counts once; kept as long as the buckets. */
export type EndpointHealthEventsTable = {
  generation_id: string;
  minute: ColumnType<Date, Date, Date>;
};

export type HealthTables = {
  endpoint_health_minutes: EndpointHealthMinutesTable;
  endpoint_health_histograms: EndpointHealthHistogramsTable;
  endpoint_health_events: EndpointHealthEventsTable;
};
