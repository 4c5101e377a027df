import type { ChatRequest } from "../canonical/chat-request.js";
import type { AttemptRecord } from "../canonical/generation.js";
import { attemptFault } from "../planning/fault.js";
import type { PlannedAttempt } from "../planning/plan.js";
import type { Route } from "../planning/planner.js";
import { cancelledFailure, networkFailure, type UpstreamFailure } from "../providers/failure.js";
import type { NativeWebSearch } from "../providers/types.js";
import {
  type CanonicalCompletion,
  type ChatResult,
  isRelayable,
  type StreamEvent,
} from "../providers/types.js";
import { observeAttempt, observeFailover } from "./attempt-metrics.js";
import type { EdgeContext } from "./edge-context.js";
import { inAttemptSpan } from "./tracing.js";

/** What the failover loop reads of the edge. */
export type AttemptsDeps = Pick<EdgeContext, "now" | "health" | "logger">;

export type Served =
  | { stream: false; completion: CanonicalCompletion }
  | { stream: true; events: AsyncIterable<StreamEvent> };

export interface AttemptsSuccess<T> {
  ok: true;
  attempt: PlannedAttempt;
  startedAt: number;
  served: T;
  records: AttemptRecord[];
}

export interface AttemptsFailure {
  ok: false;
  failure: UpstreamFailure;
  lastAttempt: PlannedAttempt | undefined;
  records: AttemptRecord[];
}

export type AttemptsOutcome<T = Served> = AttemptsSuccess<T> | AttemptsFailure;

export interface AttemptsInput {
  route: Route;
  request: ChatRequest;
  stream: boolean;
  signal: AbortSignal;
  /** The web plugin on the provider's own search: every planned endpoint has one (web-native.ts). */
  webSearch?: NativeWebSearch | undefined;
}

/**
 * Tries the plan in order until one attempt produces a response. Before the first byte reaches the
 * client a retryable failure moves on (a context-length error skips the rest of that model); for a
 * stream the first event is awaited here, so an upstream that fails before sending anything still
 * fails over.
 */
export function runAttempts(input: AttemptsInput, deps: AttemptsDeps): Promise<AttemptsOutcome> {
  return tryInOrder(
    input.route.attempts,
    input.signal,
    (attempt) => callProvider(attempt, input, deps),
    deps,
  );
}

/** One call of one planned attempt; failures are values. */
export type Invoke<T> = (
  attempt: PlannedAttempt,
) => Promise<{ ok: true; status: number; served: T } | { ok: false; failure: UpstreamFailure }>;

/** The failover loop behind every surface (chat-like and embeddings): see runAttempts. */
export async function tryInOrder<T>(
  attempts: readonly PlannedAttempt[],
  signal: AbortSignal,
  invoke: Invoke<T>,
  deps: AttemptsDeps,
): Promise<AttemptsOutcome<T>> {
  const records: AttemptRecord[] = [];
  const skippedModels = new Set<string>();
  let last: { failure: UpstreamFailure; attempt: PlannedAttempt } | undefined;
  for (const attempt of attempts) {
    if (skippedModels.has(attempt.model.id)) continue;
    if (signal.aborted) return failed(cancelledFailure(), attempt, records);
    if (last) observeFailover(last.attempt, attempt);
    const startedAt = deps.now();
    const result = await inAttemptSpan(attempt, () => invoke(attempt));
    observeAttempt(attempt, result, deps.now() - startedAt);
    records.push({
      provider: attempt.endpoint.providerId,
      model: attempt.model.id,
      status: result.ok ? result.status : result.failure.status,
      latencyMs: Math.max(0, Math.round(deps.now() - startedAt)),
      isByok: attempt.byok !== undefined,
      ...(result.ok ? {} : { fault: attemptFault(result.failure, attempt.byok !== undefined) }),
      ...(attempt.transforms ? { transforms: [...attempt.transforms] } : {}),
    });
    if (result.ok) {
      deps.health.recordSuccess(attempt.model.id, attempt.endpoint.providerId);
      return { ok: true, attempt, startedAt, served: result.served, records };
    }
    const { failure } = result;
    if (failure.kind === "cancelled") return failed(failure, attempt, records);
    deps.logger.warn(
      {
        provider: attempt.endpoint.providerId,
        model: attempt.model.id,
        status: failure.status,
        kind: failure.kind,
        error: failure.message,
      },
      "provider attempt failed",
    );
    last = { failure, attempt };
    if (failure.contextLength) {
      skippedModels.add(attempt.model.id);
      continue;
    }
    if (!failure.retryable) return failed(failure, attempt, records);
    // Only the provider's own failures mark it down; a request that failed on our side says nothing of it.
    if (attemptFault(failure, attempt.byok !== undefined) === "provider")
      deps.health.recordFailure(attempt.model.id, attempt.endpoint.providerId);
  }
  return failed(
    last?.failure ?? networkFailure("protocol", "no attempt could be made"),
    last?.attempt,
    records,
  );
}

function failed(
  failure: UpstreamFailure,
  attempt: PlannedAttempt | undefined,
  records: AttemptRecord[],
): AttemptsFailure {
  return { ok: false, failure, lastAttempt: attempt, records };
}

type CallResult = { ok: true; status: number; served: Served } | { ok: false; failure: UpstreamFailure };

async function callProvider(
  attempt: PlannedAttempt,
  input: AttemptsInput,
  deps: AttemptsDeps,
): Promise<CallResult> {
  const chat = input.route.adapterFor(attempt)?.chat;
  if (!chat) return { ok: false, failure: networkFailure("protocol", "provider adapter is gone") };
  let result: ChatResult;
  try {
    result = await chat.complete({
      request: input.request,
      upstreamModel: attempt.endpoint.upstreamModel,
      stream: input.stream,
      signal: input.signal,
      ...(input.webSearch ? { webSearch: input.webSearch } : {}),
    });
  } catch (error) {
    // Adapters report failures as values; a throw is a bug, but one provider's bug must not end the plan.
    deps.logger.error({ err: error, provider: attempt.endpoint.providerId }, "provider adapter threw");
    return {
      ok: false,
      failure: { ...networkFailure("protocol", "provider adapter failed"), gatewayFault: true },
    };
  }
  if (!result.ok) return result;
  if (!result.stream)
    return { ok: true, status: result.status, served: { stream: false, completion: result.completion } };
  return peekStream(result.status, result.events, input.signal);
}

/** Waits for the first event: a stream that errors or ends before any content is a failed attempt. */
async function peekStream(
  status: number,
  events: AsyncIterable<StreamEvent>,
  signal: AbortSignal,
): Promise<CallResult> {
  const iterator = events[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (signal.aborted) {
    await iterator.return?.();
    return { ok: false, failure: cancelledFailure() };
  }
  if (first.done)
    return {
      ok: false,
      failure: networkFailure("protocol", "the provider ended the stream without content"),
    };
  if (first.value.type === "error") {
    await iterator.return?.();
    return {
      ok: false,
      failure: { ...networkFailure("protocol", first.value.message), code: first.value.code, status },
    };
  }
  if (isRelayable(events)) {
    // Put back rather than wrapped in a generator: the responder can still relay the stream's bytes.
    events.unshift(first.value);
    return { ok: true, status, served: { stream: true, events } };
  }
  return { ok: true, status, served: { stream: true, events: prepend(first.value, iterator) } };
}

async function* prepend(first: StreamEvent, rest: AsyncIterator<StreamEvent>): AsyncGenerator<StreamEvent> {
  try {
    yield first;
    for (;;) {
      const next = await rest.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await rest.return?.();
  }
}
