/** OpenRouter's endpoint status code (0 ok, -1 degraded, -2 down; null: no traffic measured yet) as text. */
export function endpointStatus(status: number | null): string {
  if (status === null) return "No data yet";
  if (status >= 0) return "Up";
  if (status === -1) return "Degraded";
  return "Down";
}

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
