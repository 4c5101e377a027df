import type { Attempt, UsageRecorded } from "@gw/proto/events/v1/usage";
import { boundsOf, bucketOf, type Metric } from "./histogram.js";

/** What one usage event adds to one endpoint's current minute. */
export interface EndpointSample {
  model: string;
  provider: string;
  attempts: number;
  failures: number;
  /** Histogram bucket increments: metric → bucket index → count. */
  buckets: { metric: Metric; bucket: number; count: number }[];
}

// Request errors the caller must fix (the edge's FINAL_STATUSES): for events sent before Attempt.fault.
const CALLER_STATUSES = new Set([400, 413, 422]);

/** "" = served; only "provider" is a failure; the other faults are not the endpoint's and do not count. */
function faultOf(attempt: Attempt): string {
  if (attempt.fault !== "") return attempt.fault;
  if (attempt.status >= 200 && attempt.status < 300) return "";
  return CALLER_STATUSES.has(attempt.status) ? "caller" : "provider";
}

/**
 * The health samples of one finished request: each attempt that the provider answered or failed counts
 * once toward its endpoint's uptime; the serving attempt adds its time to first token (for an
 * unstreamed request, the whole answer) and the request's end-to-end output tokens per second
 * (completion tokens over the serving attempt's duration, as OpenRouter measures throughput).
 */
export function samplesOf(usage: UsageRecorded): EndpointSample[] {
  const samples = new Map<string, EndpointSample>();
  const sample = (attempt: Attempt): EndpointSample => {
    const key = `${attempt.model}\n${attempt.provider}`;
    let found = samples.get(key);
    if (!found) {
      found = { model: attempt.model, provider: attempt.provider, attempts: 0, failures: 0, buckets: [] };
      samples.set(key, found);
    }
    return found;
  };
  const add = (target: EndpointSample, metric: Metric, value: number) =>
    target.buckets.push({ metric, bucket: bucketOf(boundsOf(metric), value), count: 1 });
  for (const attempt of usage.attempts) {
    const fault = faultOf(attempt);
    if (fault !== "" && fault !== "provider") continue;
    const target = sample(attempt);
    target.attempts += 1;
    if (fault === "provider") {
      target.failures += 1;
      continue;
    }
    add(target, "latency", attempt.latencyMs);
    const tokensPerSecond = throughputOf(usage);
    if (tokensPerSecond !== undefined) add(target, "throughput", tokensPerSecond);
  }
  return [...samples.values()];
}

function throughputOf(usage: UsageRecorded): number | undefined {
  if (usage.cancelled || usage.apiType === "embeddings") return undefined;
  if (usage.completionTokens === 0 || usage.generationTimeMs === 0) return undefined;
  return usage.completionTokens / (usage.generationTimeMs / 1000);
}
