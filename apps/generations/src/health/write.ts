import { type UnnestColumn, unnestFrom, unnestValues } from "../db/prepared.js";
import { LATENCY_MS_BOUNDS, THROUGHPUT_BOUNDS } from "./histogram.js";
import { type EventSamples, minuteOf } from "./store.js";

/** One event's attempts at one endpoint in one minute. */
interface MinuteSample {
  generationId: string;
  model: string;
  provider: string;
  minute: string;
  attempts: number;
  failures: number;
}

/** One event's increment of one histogram bucket of one endpoint in one minute. */
interface BucketSample extends Omit<MinuteSample, "attempts" | "failures"> {
  metric: string;
  bucket: number;
  count: number;
}

const KEY_COLUMNS = [
  {
    name: "generation_id",
    type: "text",
    value: (sample: MinuteSample | BucketSample) => sample.generationId,
  },
  { name: "model", type: "text", value: (sample: MinuteSample | BucketSample) => sample.model },
  { name: "provider_id", type: "text", value: (sample: MinuteSample | BucketSample) => sample.provider },
  { name: "minute", type: "timestamptz", value: (sample: MinuteSample | BucketSample) => sample.minute },
] as const;

const MINUTE_COLUMNS: readonly UnnestColumn<MinuteSample>[] = [
  ...KEY_COLUMNS,
  { name: "attempts", type: "integer", value: (sample) => sample.attempts },
  { name: "failures", type: "integer", value: (sample) => sample.failures },
];

const BUCKET_COLUMNS: readonly UnnestColumn<BucketSample>[] = [
  ...KEY_COLUMNS,
  { name: "metric", type: "text", value: (sample) => sample.metric },
  { name: "bucket", type: "smallint", value: (sample) => sample.bucket },
  { name: "count", type: "integer", value: (sample) => sample.count },
];

/** How many parameters healthFromInserted takes. */
export const HEALTH_PARAMETERS = MINUTE_COLUMNS.length + BUCKET_COLUMNS.length;

/** The last bucket index of a metric (its overflow bucket): the length of its counts array, less one. */
const LAST_BUCKET = { latency: LATENCY_MS_BOUNDS.length, throughput: THROUGHPUT_BOUNDS.length } as const;

/** The batch's counts of one metric for the minute row `s` is grouped on, dense from bucket 0. */
function batchCounts(metric: keyof typeof LAST_BUCKET): string {
  return `array(select coalesce(sum(b.count), 0)::integer
    from generate_series(0, ${LAST_BUCKET[metric]}) g
    left join health_buckets b on b.bucket = g and b.metric = '${metric}'
      and b.model = s.model and b.provider_id = s.provider_id and b.minute = s.minute
    group by g order by g)`;
}

/** The stored counts plus the batch's, bucket by bucket (a shorter array counts as zeros past its end). */
function addedCounts(column: string): string {
  return `array(select coalesce(a, 0) + coalesce(b, 0)
    from unnest(stored.${column}, excluded.${column}) with ordinality as u(a, b, i) order by i)`;
}

/**
 * The CTEs that add the samples of the events the records' insert returned (`inserted`, with an `id`
 * column) to the minute buckets, in the statement that stores the records: a redelivered event
 * inserts no record and so adds no sample, with no dedupe row. A minute's histograms are arrays in its
 * row, so a batch writes one row per endpoint and minute whatever buckets its samples fall in. Samples
 * are summed per bucket first (one upsert may not touch a row twice) and written in key order, so
 * concurrent batches lock buckets in the same order. Parameters from `$first` on, HEALTH_PARAMETERS of
 * them (healthValues).
 */
export function healthFromInserted(first: number, inserted: string): string {
  return `health_buckets as (
  select h.model, h.provider_id, h.minute, h.metric, h.bucket, sum(h.count) as count
  from ${unnestFrom(BUCKET_COLUMNS, first + MINUTE_COLUMNS.length, "h")}
  where h.generation_id in (select id from ${inserted})
  group by h.model, h.provider_id, h.minute, h.metric, h.bucket
), health_minutes as (
  insert into endpoint_health_minutes as stored
    (model, provider_id, minute, attempts, failures, latency_counts, throughput_counts)
  select s.model, s.provider_id, s.minute, sum(s.attempts), sum(s.failures),
    ${batchCounts("latency")}, ${batchCounts("throughput")}
  from ${unnestFrom(MINUTE_COLUMNS, first, "s")}
  where s.generation_id in (select id from ${inserted})
  group by s.model, s.provider_id, s.minute
  order by s.model, s.provider_id, s.minute
  on conflict (model, provider_id, minute) do update
    set attempts = stored.attempts + excluded.attempts, failures = stored.failures + excluded.failures,
      latency_counts = ${addedCounts("latency_counts")},
      throughput_counts = ${addedCounts("throughput_counts")}
  returning 1
)`;
}

/** The parameters of healthFromInserted for a batch's samples. */
export function healthValues(events: readonly EventSamples[]): string[] {
  const minutes: MinuteSample[] = [];
  const buckets: BucketSample[] = [];
  for (const event of events) {
    const minute = minuteOf(event.at).toISOString();
    for (const sample of event.samples) {
      const key = {
        generationId: event.generationId,
        model: sample.model,
        provider: sample.provider,
        minute,
      };
      minutes.push({ ...key, attempts: sample.attempts, failures: sample.failures });
      for (const { metric, bucket, count } of sample.buckets) buckets.push({ ...key, metric, bucket, count });
    }
  }
  return [...unnestValues(MINUTE_COLUMNS, minutes), ...unnestValues(BUCKET_COLUMNS, buckets)];
}
