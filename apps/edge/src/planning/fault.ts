import type { AttemptFault } from "../canonical/generation.js";
import type { UpstreamFailure } from "../providers/failure.js";

// On the account's own key (BYOK) these say something about that key, not about the provider.
const ACCOUNT_KEY_STATUSES = new Set([401, 402, 403, 429]);

/**
 * Whose fault a failed attempt was. Only the provider's faults count against an endpoint's health
 * (its circuit here, its measured uptime everywhere): a request the caller must fix, a bug on our
 * side or a client that went away would otherwise let one tenant mark a provider down for all.
 */
export function attemptFault(failure: UpstreamFailure, isByok: boolean): AttemptFault {
  if (failure.kind === "cancelled") return "cancelled";
  if (failure.gatewayFault) return "gateway";
  if (failure.kind === "http" && (!failure.retryable || failure.contextLength)) return "caller";
  if (isByok && failure.kind === "http" && ACCOUNT_KEY_STATUSES.has(failure.status)) return "caller";
  return "provider";
}

/** The provider proxy's one attempt: only the status is known (0 = no answer). */
export function proxyAttemptFault(status: number, cancelled: boolean, isByok: boolean): AttemptFault {
  if (cancelled) return "cancelled";
  if (isByok && ACCOUNT_KEY_STATUSES.has(status)) return "caller";
  return status === 0 || status === 429 || status >= 500 ? "provider" : "caller";
}
