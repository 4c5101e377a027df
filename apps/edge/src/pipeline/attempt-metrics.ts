import { failureClass, recordFailover, recordUpstreamAttempt } from "@gw/metrics";
import type { PlannedAttempt } from "../planning/plan.js";
import type { UpstreamFailure } from "../providers/failure.js";

type Result = { ok: true; served: unknown } | { ok: false; failure: UpstreamFailure };

/**
 * One attempt's series: its latency by provider and catalogue model (a stream's is its time to the
 * first event, which the failover loop waits for: also its time to first token), or its failure class.
 */
export function observeAttempt(attempt: PlannedAttempt, result: Result, elapsedMs: number): void {
  recordUpstreamAttempt({
    provider: attempt.endpoint.providerId,
    model: attempt.model.id,
    seconds: Math.max(0, elapsedMs) / 1000,
    stream: result.ok && isStream(result.served),
    failureClass: result.ok ? undefined : failureClass(result.failure.kind, result.failure.status),
  });
}

/** The loop moved on from `from`'s failure to `to`. */
export function observeFailover(from: PlannedAttempt, to: PlannedAttempt): void {
  recordFailover(from.endpoint.providerId, to.endpoint.providerId);
}

function isStream(served: unknown): boolean {
  return typeof served === "object" && served !== null && "stream" in served && served.stream === true;
}
