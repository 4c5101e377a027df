import type { Percentiles } from "@gw/proto/generations/v1/health";

/**
 * Fixed histogram buckets: each minute keeps counts per bucket, so minutes (and aggregator instances)
 * merge by adding counts, and a percentile over 30 minutes costs one pass over ~25 counts. A percentile
 * is reported as its bucket's upper bound: exact to within one bucket (~1.5x apart), never a made-up
 * precision. Values above the last bound fall in an overflow bucket reported as the last bound.
 */
export const LATENCY_MS_BOUNDS = [
  50, 100, 150, 200, 300, 400, 500, 700, 1_000, 1_500, 2_000, 3_000, 5_000, 7_500, 10_000, 15_000, 20_000,
  30_000, 60_000, 120_000,
] as const;

export const THROUGHPUT_BOUNDS = [
  1, 2, 5, 10, 15, 20, 30, 40, 50, 60, 75, 100, 125, 150, 200, 250, 300, 400, 500, 750, 1_000, 2_000, 5_000,
] as const;

export type Metric = "latency" | "throughput";

export function boundsOf(metric: Metric): readonly number[] {
  return metric === "latency" ? LATENCY_MS_BOUNDS : THROUGHPUT_BOUNDS;
}

/** The index of the first bucket whose upper bound holds the value; bounds.length = overflow. */
export function bucketOf(bounds: readonly number[], value: number): number {
  const index = bounds.findIndex((bound) => value <= bound);
  return index === -1 ? bounds.length : index;
}

/** p50/p75/p90/p99 from bucket counts (index → count); undefined when there is no sample. */
export function percentiles(
  bounds: readonly number[],
  counts: ReadonlyMap<number, number>,
): Percentiles | undefined {
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  if (total === 0) return undefined;
  const at = (quantile: number): number => {
    const rank = Math.max(1, Math.ceil(quantile * total));
    let seen = 0;
    for (let index = 0; index <= bounds.length; index++) {
      seen += counts.get(index) ?? 0;
      if (seen >= rank) return bounds[Math.min(index, bounds.length - 1)] ?? 0;
    }
    return bounds[bounds.length - 1] ?? 0;
  };
  return { p50: at(0.5), p75: at(0.75), p90: at(0.9), p99: at(0.99) };
}
