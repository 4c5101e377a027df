import type { Response } from "express";
import { finalError } from "../providers/failure.js";
import { completionTexts } from "../translate/openai/chat-response.js";
import { computeCost } from "../usage/cost.js";
import { normaliseFinishReason } from "../usage/finish-reason.js";
import { type AttemptsOutcome, runAttempts } from "./attempts.js";
import {
  attemptsMetadata,
  type ChatContext,
  generation,
  identity,
  measure,
  unservedMeasure,
} from "./context.js";
import type { PipelineDeps } from "./deps.js";
import { sendJson } from "./json-response.js";

/** A non-streamed chat completion: one JSON body with usage and cost, metered after it is sent. */
export async function respondJson(
  response: Response,
  context: ChatContext,
  deps: PipelineDeps,
): Promise<void> {
  const outcome = await runAttempts(
    { attempts: context.attempts, request: context.request, stream: false, signal: context.signal },
    deps,
  );
  if (!outcome.ok) return failJson(response, context, outcome, deps);
  if (outcome.served.stream) throw new Error("a non-streamed attempt produced a stream");
  const { completion } = outcome.served;
  const measured = await measure(completion.usage, context.prompt, () => completionTexts(completion.body));
  const cost = computeCost(outcome.attempt.endpoint.pricing, measured.usage, measured.images);
  const endedAt = deps.now();
  sendJson(
    response,
    context.surface.renderJson(completion.body, identity(context, outcome.attempt, endedAt), {
      ...measured,
      cost,
      isByok: outcome.attempt.byok !== undefined,
    }),
  );
  deps.meter.record(
    generation(context, {
      attempt: outcome.attempt,
      streamed: false,
      cancelled: false,
      served: true,
      measured,
      finishReason: normaliseFinishReason(completion.nativeFinishReason) ?? "stop",
      nativeFinishReason: completion.nativeFinishReason,
      upstreamId: completion.upstreamId,
      generationStartedAt: outcome.startedAt,
      endedAt,
      records: outcome.records,
    }),
    context.hold,
  );
}

async function failJson(
  response: Response,
  context: ChatContext,
  outcome: Extract<AttemptsOutcome, { ok: false }>,
  deps: PipelineDeps,
): Promise<void> {
  const cancelled = outcome.failure.kind === "cancelled";
  const measured = await unservedMeasure(context, cancelled, outcome.records.length > 0);
  deps.meter.record(
    generation(context, {
      attempt: outcome.lastAttempt,
      streamed: false,
      cancelled,
      served: false,
      measured,
      finishReason: "error",
      nativeFinishReason: undefined,
      upstreamId: undefined,
      generationStartedAt: undefined,
      endedAt: deps.now(),
      records: outcome.records,
    }),
    context.hold,
  );
  if (cancelled) {
    response.end();
    return;
  }
  throw finalError(outcome.failure, { attempts: attemptsMetadata(outcome.records) });
}
