import type { Endpoint } from "./snapshot.js";

/** Prompt plus completion price per token: the one figure endpoints are compared by. */
export function unitPrice(endpoint: Endpoint): bigint {
  return (endpoint.pricing?.promptPico ?? 0n) + (endpoint.pricing?.completionPico ?? 0n);
}

export function byPrice(endpoints: readonly Endpoint[]): Endpoint[] {
  return [...endpoints].sort((a, b) => {
    const difference = unitPrice(a) - unitPrice(b);
    return difference < 0n ? -1 : difference > 0n ? 1 : 0;
  });
}
