import type { ProviderPreferences } from "../canonical/chat-request.js";
import { byPrice, unitPrice } from "../catalog/price.js";
import type { Endpoint } from "../catalog/snapshot.js";
import type { SortOrder } from "./variants.js";

export interface OrderContext {
  preferences: ProviderPreferences | undefined;
  /** From the request's `provider.sort` or the model variant; `provider.sort` wins. */
  sort: SortOrder | undefined;
  /** Uniform in [0, 1); injectable so tests can pin the weighted draw. */
  random: () => number;
  /** False for a provider that failed recently; those go last in the default order. */
  healthy: (providerId: string) => boolean;
}

/**
 * Orders one model's usable endpoints into attempts (api-decisions: Routing). `provider.order` puts the
 * named providers first; `sort` orders by price (throughput and latency are not measured yet, so they
 * keep the catalogue order, healthy first); otherwise one endpoint is drawn with weight ∝ 1/price²
 * among the healthy ones and the rest follow by price. `allow_fallbacks: false` keeps only the chosen
 * provider (or the `order` list).
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
  const sort = context.preferences?.sort ?? context.sort;
  if (sort === "price") return byPrice(endpoints);
  const healthy = endpoints.filter((endpoint) => context.healthy(endpoint.providerId));
  const failing = endpoints.filter((endpoint) => !context.healthy(endpoint.providerId));
  if (sort) return [...healthy, ...failing];
  const first = weightedDraw(healthy, context.random);
  const rest = healthy.filter((endpoint) => endpoint !== first);
  return [...(first ? [first] : []), ...byPrice(rest), ...byPrice(failing)];
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
