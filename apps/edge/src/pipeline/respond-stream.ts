import type { Response } from "express";
import type { PlannedAttempt } from "../planner/plan.js";
import { finalError } from "../providers/failure.js";
import type { StreamEvent } from "../providers/types.js";
import { computeCost, ZERO_COST } from "../usage/cost.js";
import { normaliseFinishReason } from "../usage/finish-reason.js";
import type { TokenUsage } from "../usage/tokens.js";
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
import { SseWriter } from "./sse-writer.js";
import type { StreamRenderer } from "./surface.js";

interface Pumped {
  usage: TokenUsage | undefined;
  error: Extract<StreamEvent, { type: "error" }> | undefined;
}

/**
 * A streamed chat completion: chunks pass through as they arrive (rewritten, never buffered), the
 * stream always ends with our usage chunk and `[DONE]`, and metering runs once it has ended.
 */
export async function respondStream(
  response: Response,
  context: ChatContext,
  deps: PipelineDeps,
): Promise<void> {
  const writer = new SseWriter(response, deps.keepAliveMs, context.surface.framing);
  writer.arm();
  const outcome = await runAttempts(
    { attempts: context.attempts, request: context.request, stream: true, signal: context.signal },
    deps,
  );
  if (!outcome.ok) return failStream(writer, context, outcome, deps);
  if (!outcome.served.stream) throw new Error("a streamed attempt produced a single body");
  const rewriter = context.surface.stream(identity(context, outcome.attempt, deps.now()));
  const pumped = await pump(outcome.served.events, writer, rewriter);
  const cancelled = writer.clientGone;
  const measured = await measure(pumped.usage, context.prompt, () => rewriter.outputTexts());
  const cost = computeCost(outcome.attempt.endpoint.pricing, measured.usage, measured.images);
  if (pumped.error) await writer.write(rewriter.error(pumped.error.message, pumped.error.code));
  await writer.write(rewriter.end({ ...measured, cost, isByok: outcome.attempt.byok !== undefined }));
  writer.end();
  const nativeFinishReason = rewriter.finishReason();
  deps.meter.record(
    generation(context, {
      attempt: outcome.attempt,
      streamed: true,
      cancelled,
      served: true,
      measured,
      finishReason: pumped.error ? "error" : (normaliseFinishReason(nativeFinishReason) ?? "error"),
      nativeFinishReason,
      upstreamId: rewriter.upstreamId(),
      generationStartedAt: outcome.startedAt,
      endedAt: deps.now(),
      records: outcome.records,
    }),
    context.hold,
  );
}

async function pump(
  events: AsyncIterable<StreamEvent>,
  writer: SseWriter,
  rewriter: StreamRenderer,
): Promise<Pumped> {
  const pumped: Pumped = { usage: undefined, error: undefined };
  for await (const event of events) {
    if (writer.clientGone) break;
    if (event.type === "chunk") {
      const frames = rewriter.chunk(event.chunk);
      if (frames) await writer.write(frames);
    } else if (event.type === "usage") pumped.usage = event.usage;
    else {
      pumped.error = event;
      break;
    }
  }
  return pumped;
}

async function failStream(
  writer: SseWriter,
  context: ChatContext,
  outcome: Extract<AttemptsOutcome, { ok: false }>,
  deps: PipelineDeps,
): Promise<void> {
  const cancelled = outcome.failure.kind === "cancelled";
  const measured = await unservedMeasure(context, cancelled, outcome.records.length > 0);
  const endedAt = deps.now();
  deps.meter.record(
    generation(context, {
      attempt: outcome.lastAttempt,
      streamed: true,
      cancelled,
      served: false,
      measured,
      finishReason: "error",
      nativeFinishReason: undefined,
      upstreamId: undefined,
      generationStartedAt: undefined,
      endedAt,
      records: outcome.records,
    }),
    context.hold,
  );
  const error = finalError(outcome.failure, { attempts: attemptsMetadata(outcome.records) });
  if (cancelled) {
    writer.end();
    return;
  }
  if (!writer.headersSent) {
    // Nothing reached the client yet, not even a keep-alive: answer with a real status.
    writer.stop();
    throw error;
  }
  const attempt: PlannedAttempt | undefined = outcome.lastAttempt ?? context.attempts[0];
  if (attempt) {
    const rewriter = context.surface.stream(identity(context, attempt, endedAt));
    await writer.write(rewriter.error(error.message, error.code));
    await writer.write(rewriter.end({ ...measured, cost: ZERO_COST, isByok: false }));
  }
  writer.end();
}
