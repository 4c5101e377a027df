import { collectDefaultMetrics, Registry } from "prom-client";

/**
 * The process's one registry. Every series of every app is defined on it, so the embedded default
 * (four apps in one process) serves one exposition in which each series exists once; series that
 * several apps share (HTTP) carry an `app` label instead of being registered per app.
 */
export const registry = new Registry();

let defaultsOn = false;

/**
 * Node's own series (event-loop lag, heap, GC, handles, CPU), started once per process when the first
 * metrics listener starts: a process that exposes nothing pays nothing for them.
 */
export function enableDefaultMetrics(): void {
  if (defaultsOn) return;
  defaultsOn = true;
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
}

/** Every metric name this code base exports (the alert rules may use only these). */
export function metricNames(): string[] {
  return registry.getMetricsAsArray().map((metric) => metric.name);
}

/** Latency buckets in seconds, from a cache hit (1 ms) to a long generation (2 min). */
export const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** Buckets for fast internal work (gRPC, Kafka sends, ledger writes): 0.5 ms to 5 s. */
export const FAST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * A label value taken from something a caller or provider may influence (an error code), kept only
 * when it looks like a catalogue code; anything else is one fixed value, so no caller can grow the
 * label set.
 */
export function boundedCode(value: string | undefined): string {
  if (value === undefined || value === "") return "none";
  return /^[a-z][a-z0-9_]{0,47}$/.test(value) ? value : "other";
}

/** Seconds since `startedAt` (a `performance.now()` reading). */
export function secondsSince(startedAt: number): number {
  return (performance.now() - startedAt) / 1000;
}
