import { Counter, Histogram } from "prom-client";
import {
  type BoundCounter,
  type BoundHistogram,
  BoundSeries,
  boundCounter,
  boundHistogram,
} from "./bound.js";
import { LATENCY_BUCKETS, registry } from "./registry.js";

/**
 * Provider calls, by catalogue provider id and catalogue model id (both from the catalogue, never from
 * the caller: a model the catalogue does not know never reaches a provider call).
 */
const attempts = new Histogram({
  name: "gw_upstream_attempt_duration_seconds",
  help: "One provider attempt until its answer (a stream: until its first event), by outcome.",
  labelNames: ["provider", "model", "outcome"] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

const firstToken = new Histogram({
  name: "gw_upstream_time_to_first_token_seconds",
  help: "Streamed attempts: time from the request to the provider's first event.",
  labelNames: ["provider", "model"] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

const errors = new Counter({
  name: "gw_upstream_errors_total",
  help: "Failed provider attempts by failure class (connect, timeout, protocol, http_4xx, http_429, http_5xx, cancelled).",
  labelNames: ["provider", "model", "class"] as const,
  registers: [registry],
});

const failovers = new Counter({
  name: "gw_upstream_failovers_total",
  help: "A request moved on to its next planned attempt after a failed one.",
  labelNames: ["from_provider", "to_provider"] as const,
  registers: [registry],
});

export interface AttemptObservation {
  provider: string;
  model: string;
  seconds: number;
  stream: boolean;
  /** Undefined when the attempt produced an answer. */
  failureClass: string | undefined;
}

const attemptSeries = new BoundSeries<BoundHistogram>(([provider, model, outcome]) =>
  boundHistogram(attempts, { provider, model, outcome }),
);
const errorSeries = new BoundSeries<BoundCounter>(([provider, model, failure]) =>
  boundCounter(errors, { provider, model, class: failure }),
);
const firstTokenSeries = new BoundSeries<BoundHistogram>(([provider, model]) =>
  boundHistogram(firstToken, { provider, model }),
);

export function recordUpstreamAttempt(attempt: AttemptObservation): void {
  const { provider, model, seconds, failureClass } = attempt;
  attemptSeries.get(provider, model, failureClass === undefined ? "ok" : "failed").observe(seconds);
  if (failureClass !== undefined) errorSeries.get(provider, model, failureClass).inc();
  else if (attempt.stream) firstTokenSeries.get(provider, model).observe(seconds);
}

export function recordFailover(fromProvider: string, toProvider: string): void {
  failovers.inc({ from_provider: fromProvider, to_provider: toProvider });
}

/** An upstream failure's class: its kind, and for HTTP answers the status family (429 on its own). */
export function failureClass(kind: string, status: number): string {
  if (kind !== "http") return kind;
  if (status === 429) return "http_429";
  return status >= 500 ? "http_5xx" : "http_4xx";
}
