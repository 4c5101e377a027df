import type { EndpointHealth } from "@gw/proto/generations/v1/health";
import { boundsOf, type Metric, percentiles } from "./histogram.js";
import type { WindowRows } from "./store.js";

/** The status looks at the last 5 minutes only, so an endpoint recovers 5 minutes after its last failure. */
export const STATUS_WINDOW_MS = 5 * 60_000;
/** Fewer recent attempts than this say nothing about the endpoint: its status stays "ok". */
export const STATUS_MIN_ATTEMPTS = 3;

/**
 * The status rule: over the last 5 minutes, with at least 3 attempts, an uptime under 50 % is "down"
 * and under 90 % "degraded"; otherwise "ok". Degraded and down endpoints go last on every edge.
 */
export function statusOf(attempts: number, failures: number): string {
  if (attempts < STATUS_MIN_ATTEMPTS) return "ok";
  const uptime = (attempts - failures) / attempts;
  if (uptime < 0.5) return "down";
  return uptime < 0.9 ? "degraded" : "ok";
}

/** Every endpoint's figures over the window, from the minute buckets; sorted for a stable version. */
export function figuresOf(rows: WindowRows, now: number): EndpointHealth[] {
  type Totals = { attempts: number; failures: number; recentAttempts: number; recentFailures: number };
  const totals = new Map<string, Totals>();
  for (const row of rows.minutes) {
    const key = `${row.model}\n${row.provider_id}`;
    const total = totals.get(key) ?? { attempts: 0, failures: 0, recentAttempts: 0, recentFailures: 0 };
    total.attempts += row.attempts;
    total.failures += row.failures;
    // A minute counts as recent when any of it falls in the status window.
    if (row.minute.getTime() + 60_000 > now - STATUS_WINDOW_MS) {
      total.recentAttempts += row.attempts;
      total.recentFailures += row.failures;
    }
    totals.set(key, total);
  }
  const counts = new Map<string, Map<number, number>>();
  for (const row of rows.histograms) {
    const key = `${row.model}\n${row.provider_id}\n${row.metric}`;
    const buckets = counts.get(key) ?? new Map<number, number>();
    buckets.set(row.bucket, (buckets.get(row.bucket) ?? 0) + row.count);
    counts.set(key, buckets);
  }
  const metric = (key: string, name: Metric) => {
    const buckets = counts.get(`${key}\n${name}`);
    return buckets ? percentiles(boundsOf(name), buckets) : undefined;
  };
  return [...totals.entries()]
    .filter(([, total]) => total.attempts > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, total]) => {
      const [model = "", providerId = ""] = key.split("\n");
      return {
        model,
        providerId,
        attempts: total.attempts,
        failures: total.failures,
        uptime: (total.attempts - total.failures) / total.attempts,
        errorRate: total.failures / total.attempts,
        latencyMs: metric(key, "latency"),
        throughput: metric(key, "throughput"),
        status: statusOf(total.recentAttempts, total.recentFailures),
      };
    });
}
