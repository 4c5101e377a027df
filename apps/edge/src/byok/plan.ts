import type { Availability } from "../planner/filters.js";
import type { PlannedAttempt } from "../planner/plan.js";
import type { AccountProviders } from "./providers.js";

/** A provider the account brought its own key for is usable even when the gateway has no key for it. */
export function withByok(
  availability: (providerId: string) => Availability,
  byok: AccountProviders,
): (providerId: string) => Availability {
  if (byok.size === 0) return availability;
  return (providerId) => {
    const adapter = byok.get(providerId);
    if (adapter?.chat) return { usable: true };
    return availability(providerId);
  };
}

/**
 * BYOK endpoints go first (api-decisions "Routing"): within each model, attempts on providers the account
 * has a key for move ahead, in the account's order, and carry that key's adapter. The model order of the
 * plan (requested model, then fallbacks) is kept. The key and tenant allow-lists were applied by the
 * planner already, so a BYOK key never reopens a forbidden provider.
 */
export function preferByok(attempts: readonly PlannedAttempt[], byok: AccountProviders): PlannedAttempt[] {
  if (byok.size === 0) return [...attempts];
  const rank = new Map([...byok.keys()].map((providerId, index) => [providerId, index]));
  const result: PlannedAttempt[] = [];
  let group: PlannedAttempt[] = [];
  const flush = () => {
    const own = group
      .filter((attempt) => rank.has(attempt.endpoint.providerId))
      .sort((a, b) => (rank.get(a.endpoint.providerId) ?? 0) - (rank.get(b.endpoint.providerId) ?? 0))
      .map((attempt) => ({ ...attempt, byok: byok.get(attempt.endpoint.providerId) }));
    result.push(...own, ...group.filter((attempt) => !rank.has(attempt.endpoint.providerId)));
    group = [];
  };
  for (const attempt of attempts) {
    if (group.length > 0 && group[0]?.model.id !== attempt.model.id) flush();
    group.push(attempt);
  }
  flush();
  return result;
}
