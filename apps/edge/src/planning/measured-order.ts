import type { ProviderPreferences } from "../canonical/chat-request.js";
import { byPrice } from "../catalog/price.js";
import type { Endpoint } from "../catalog/snapshot.js";
import type { MeasuredFigures, Percentile } from "./measured-health.js";
import type { SortOrder } from "./variants.js";

type Cutoff = NonNullable<ProviderPreferences["preferred_max_latency"]>;
type Figures = (endpoint: Endpoint) => MeasuredFigures | undefined;

const PERCENTILES: readonly Percentile[] = ["p50", "p75", "p90", "p99"];

/** A number applies to p50; an object gives a cutoff per percentile (OpenRouter's provider routing). */
function cutoffs(cutoff: Cutoff): [Percentile, number][] {
  if (typeof cutoff === "number") return [["p50", cutoff]];
  return PERCENTILES.flatMap((name) => {
    const value = cutoff[name];
    return value === undefined ? [] : [[name, value] as [Percentile, number]];
  });
}

/**
 * Whether an endpoint meets `preferred_min_throughput` (tokens/s) and `preferred_max_latency` (seconds,
 * time to first token). A figure not measured yet does not count as missing: such endpoints rank as the
 * defaults say.
 */
export function meetsPreferred(
  figures: MeasuredFigures | undefined,
  preferences: ProviderPreferences | undefined,
): boolean {
  const minThroughput = preferences?.preferred_min_throughput;
  const throughput = figures?.throughput;
  if (minThroughput !== undefined && throughput) {
    if (cutoffs(minThroughput).some(([name, min]) => throughput[name] < min)) return false;
  }
  const maxLatency = preferences?.preferred_max_latency;
  const latency = figures?.latencyMs;
  if (maxLatency !== undefined && latency) {
    if (cutoffs(maxLatency).some(([name, max]) => latency[name] > max * 1000)) return false;
  }
  return true;
}

/**
 * By measured throughput (p50, highest first) or time to first token (p50, lowest first); endpoints
 * without that figure follow in price order. Ties keep price order.
 */
export function measuredRank(endpoints: readonly Endpoint[], sort: SortOrder, figures: Figures): Endpoint[] {
  if (sort === "price") return byPrice(endpoints);
  const value = (endpoint: Endpoint) =>
    sort === "throughput" ? figures(endpoint)?.throughput?.p50 : figures(endpoint)?.latencyMs?.p50;
  const priced = byPrice(endpoints);
  const measured = priced.filter((endpoint) => value(endpoint) !== undefined);
  const unmeasured = priced.filter((endpoint) => value(endpoint) === undefined);
  const direction = sort === "throughput" ? -1 : 1;
  measured.sort((a, b) => direction * ((value(a) ?? 0) - (value(b) ?? 0)));
  return [...measured, ...unmeasured];
}

/**
 * `provider.sort: {by, partition: "none"}`: the attempts of every model (the request's and its
 * fallbacks) in one order by the figure, instead of model by model. Endpoints measured degraded or down
 * still go last (an open circuit on this edge was already applied within each model's order).
 */
export function acrossModels<T extends { model: { id: string }; endpoint: Endpoint }>(
  attempts: T[],
  preferences: ProviderPreferences | undefined,
  health: { figures(modelId: string, providerId: string): MeasuredFigures | undefined },
): T[] {
  const sort = preferences?.sort;
  if (typeof sort !== "object" || sort.partition !== "none") return attempts;
  const figures = (attempt: T) => health.figures(attempt.model.id, attempt.endpoint.providerId);
  const down = (attempt: T) => figures(attempt)?.status === "degraded" || figures(attempt)?.status === "down";
  const rank = (group: T[]) => {
    const ranked = measuredRank(
      group.map((attempt) => attempt.endpoint),
      sort.by,
      (endpoint) => {
        const owner = group.find((attempt) => attempt.endpoint === endpoint);
        return owner && figures(owner);
      },
    );
    return [...group].sort((a, b) => ranked.indexOf(a.endpoint) - ranked.indexOf(b.endpoint));
  };
  return [...rank(attempts.filter((attempt) => !down(attempt))), ...rank(attempts.filter(down))];
}
