import type { AccountProviders } from "./byok-credentials.js";
import type { Availability } from "./filters.js";
import type { ByokCredential, PlannedAttempt } from "./plan.js";

/**
 * A provider the account brought its own key for is usable even when the gateway has no key for it, if
 * that key's adapter serves the surface (`kind`).
 */
export function withByok(
  availability: (providerId: string) => Availability,
  byok: AccountProviders,
  kind: "chat" | "embedding" = "chat",
): (providerId: string) => Availability {
  if (byok.size === 0) return availability;
  return (providerId) => {
    const adapter = byok.get(providerId)?.adapter;
    if (kind === "chat" ? adapter?.chat : adapter?.embeddings) return { usable: true };
    return availability(providerId);
  };
}

/**
 * BYOK endpoints go first (api-decisions "Routing"): within each model, attempts on providers the account
 * has a key for move ahead, in the account's order, and name that key. Then, as OpenRouter does by
 * default ("if your key encounters a rate limit or failure, OpenRouter will fall back to using shared
 * credits", docs "BYOK: Key Priority and Fallback"), the model's endpoints on the gateway's own keys, in
 * plan order, the BYOK providers included where the gateway has a key for them (`shared`): a failing own
 * key (401, 429, 5xx) falls back to the same provider on the shared key, billed at the normal price. The
 * model order of the plan (requested model, then fallbacks) is kept. The key and tenant allow-lists were
 * applied by the planner already, so a BYOK key never reopens a forbidden provider.
 */
export function preferByok(
  attempts: readonly PlannedAttempt[],
  byok: AccountProviders,
  shared: (providerId: string) => boolean = () => false,
): PlannedAttempt[] {
  if (byok.size === 0) return [...attempts];
  const rank = new Map([...byok.keys()].map((providerId, index) => [providerId, index]));
  const result: PlannedAttempt[] = [];
  let group: PlannedAttempt[] = [];
  const flush = () => {
    const own = group
      .filter((attempt) => rank.has(attempt.endpoint.providerId))
      .sort((a, b) => (rank.get(a.endpoint.providerId) ?? 0) - (rank.get(b.endpoint.providerId) ?? 0))
      .map((attempt) => ({ ...attempt, byok: credentialOf(byok, attempt.endpoint.providerId) }));
    const onGatewayKeys = group.filter(
      (attempt) => !rank.has(attempt.endpoint.providerId) || shared(attempt.endpoint.providerId),
    );
    result.push(...own, ...onGatewayKeys);
    group = [];
  };
  for (const attempt of attempts) {
    if (group.length > 0 && group[0]?.model.id !== attempt.model.id) flush();
    group.push(attempt);
  }
  flush();
  return result;
}

function credentialOf(byok: AccountProviders, providerId: string): ByokCredential | undefined {
  const own = byok.get(providerId);
  return own ? { credentialId: own.credentialId } : undefined;
}
