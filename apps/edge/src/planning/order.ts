import type { ProviderPreferences } from "../canonical/chat-request.js";
import { byPrice, unitPrice } from "../catalog/price.js";
import type { Endpoint } from "../catalog/snapshot.js";
import type { HealthView } from "./health.js";
import { measuredRank, meetsPreferred } from "./measured-order.js";
import type { SortOrder } from "./variants.js";

export interface OrderContext {
  preferences: ProviderPreferences | undefined;
  /** From the model variant (`:nitro`, `:floor`); `provider.sort` wins. */
  sort: SortOrder | undefined;
  /** Uniform in [0, 1); injectable so tests can pin the weighted draw. */
  random: () => number;
  /** The model whose endpoints these are: health is per endpoint (model and provider). */
  modelId: string;
  health: HealthView;
}

/** `provider.sort` as a string or `{by, partition}`, else the variant's order. */
export function sortOrder(preferences: ProviderPreferences | undefined, variant: SortOrder | undefined) {
  const sort = preferences?.sort;
  if (sort === undefined) return variant;
  return typeof sort === "string" ? sort : sort.by;
}

/**
 * Orders one model's usable endpoints into attempts (api-decisions: Routing). `provider.order` puts the
 * named providers first. Otherwise degraded endpoints (an open circuit here, or measured degraded on
 * every edge's traffic) go last whatever the sort, and endpoints that miss `preferred_min_throughput` /
 * `preferred_max_latency` go after those that meet them (no data = not known to miss). Within each group:
 * `sort: "price"` by price; `"throughput"` (and `:nitro`) by measured throughput, `"latency"` by measured
 * time to first token, endpoints without figures after the measured ones in price order; no sort = one
 * endpoint drawn with weight ∝ 1/price², the rest by price. `allow_fallbacks: false` keeps only the
 * first (or the `order` list).
 */
export function orderEndpoints(endpoints: readonly Endpoint[], context: OrderContext): Endpoint[] {
  const allowFallbacks = context.preferences?.allow_fallbacks !== false;
  const order = context.preferences?.order;
  if (order && order.length > 0) {
    const named = order.flatMap((id) => endpoints.filter((endpoint) => endpoint.providerId === id));
    if (!allowFallbacks) return named;
    const rest = endpoints.filter((endpoint) => !order.includes(endpoint.providerId));
    return [...named, ...byPrice(rest)];
  }
  const ordered = sortEndpoints(endpoints, context);
  return allowFallbacks ? ordered : ordered.slice(0, 1);
}

function sortEndpoints(endpoints: readonly Endpoint[], context: OrderContext): Endpoint[] {
  const sort = sortOrder(context.preferences, context.sort);
  // Asked once per endpoint: asking may take a half-open circuit's one probe.
  const degraded = new Set(
    endpoints.filter((endpoint) => context.health.degraded(context.modelId, endpoint.providerId)),
  );
  const figures = (endpoint: Endpoint) => context.health.figures(context.modelId, endpoint.providerId);
  const healthy = endpoints.filter((endpoint) => !degraded.has(endpoint));
  const preferred = healthy.filter((endpoint) => meetsPreferred(figures(endpoint), context.preferences));
  const missed = healthy.filter((endpoint) => !preferred.includes(endpoint));
  const failing = endpoints.filter((endpoint) => degraded.has(endpoint));
  if (sort === "price") return [...byPrice(preferred), ...byPrice(missed), ...byPrice(failing)];
  if (sort) {
    const rank = (group: readonly Endpoint[]) => measuredRank(group, sort, figures);
    return [...rank(preferred), ...rank(missed), ...rank(failing)];
  }
  const first = weightedDraw(preferred, context.random);
  const rest = preferred.filter((endpoint) => endpoint !== first);
  return [...(first ? [first] : []), ...byPrice(rest), ...byPrice(missed), ...byPrice(failing)];
}

/** Weight ∝ 1/price²; free endpoints have unbounded weight, so the draw is among them when there are any. */
export function weightedDraw(endpoints: readonly Endpoint[], random: () => number): Endpoint | undefined {
  if (endpoints.length <= 1) return endpoints[0];
  const free = endpoints.filter((endpoint) => unitPrice(endpoint) === 0n);
  if (free.length > 0) return free[Math.min(free.length - 1, Math.floor(random() * free.length))];
  const weights = endpoints.map((endpoint) => 1 / Number(unitPrice(endpoint)) ** 2);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let target = random() * total;
  for (const [index, endpoint] of endpoints.entries()) {
    target -= weights[index] ?? 0;
    if (target < 0) return endpoint;
  }
  return endpoints[endpoints.length - 1];
}
