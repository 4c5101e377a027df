/**
 * OpenRouter's endpoint status code (0 ok, -1 degraded, -2 down; null: no traffic measured yet) as
 * text, never better than the measured uptime beside it: the status can still say "ok" (e.g. before
 * the health check trips) while every request of the last 30 minutes failed, and "Up" beside "Uptime
 * 0%" contradicts itself. Below 50% served it reads Down, below 95% Degraded.
 */
export function endpointStatus(status: number | null, uptimePercent: number | null = null): string {
  const byUptime =
    uptimePercent === null ? 0 : uptimePercent < UPTIME_DOWN ? -2 : uptimePercent < UPTIME_DEGRADED ? -1 : 0;
  if (status === null) return uptimePercent === null ? "No data yet" : (STATUS_TEXT[byUptime] ?? "Down");
  return STATUS_TEXT[Math.max(-2, Math.min(0, status, byUptime))] ?? "Down";
}

const UPTIME_DOWN = 50;
const UPTIME_DEGRADED = 95;
const STATUS_TEXT: Readonly<Record<number, string>> = { 0: "Up", [-1]: "Degraded", [-2]: "Down" };

/** Uptime in percent over the last 30 minutes, or "—" with no data. */
export function formatUptime(percent: number | null): string {
  return percent === null ? "—" : `${percent.toFixed(percent >= 99.95 || percent === 0 ? 0 : 1)}%`;
}

/** Time to first token p50 / p90, in ms. */
export function formatLatency(latency: { p50: number; p90: number } | null): string {
  return latency === null ? "—" : `${Math.round(latency.p50)} / ${Math.round(latency.p90)} ms`;
}

/** Output tokens per second (p50). */
export function formatThroughput(tokensPerSecond: number | null): string {
  return tokensPerSecond === null ? "—" : `${tokensPerSecond.toFixed(tokensPerSecond < 10 ? 1 : 0)} tok/s`;
}
