import type { Response } from "express";
import { normaliseFinishReason } from "../canonical/finish-reason.js";
import { finalError } from "../providers/failure.js";
import { completionTexts } from "../translate/openai/chat-response.js";
import { measure, unservedMeasure } from "../usage/measure.js";
import { type AdmittedChat, subjectOf } from "./admitted.js";
import { type AttemptsFailure, runAttempts } from "./attempts.js";
import type { EdgeContext } from "./edge-context.js";
import { attemptsMetadata, finishGeneration, identity } from "./finish-generation.js";
import { sendJson } from "./json-response.js";
import { endStage } from "./server-timing.js";
import { withCitations } from "./web-citations.js";

/**
 * A non-streamed chat completion: one JSON body with usage and cost. Metered just before it is sent,
 * so a bus that persists in-process (the embedded default's outbox) has the usage before the answer.
 */
export async function respondJson(
  response: Response,
  chat: AdmittedChat,
  context: EdgeContext,
): Promise<void> {
  const outcome = await runAttempts(
    {
      route: chat.route,
      request: chat.request,
      stream: false,
      signal: chat.signal,
      webSearch: chat.nativeWebSearch,
    },
    context,
  );
  endStage(chat.signal, "body");
  if (!outcome.ok) return failJson(response, chat, outcome, context);
  if (outcome.served.stream) throw new Error("a non-streamed attempt produced a stream");
  const { completion } = outcome.served;
  const measured = await measure(completion.usage, chat.prompt, () => completionTexts(completion.body));
  const endedAt = context.now();
  const { record, chargedPico } = finishGeneration(context, subjectOf(chat), {
    served: true,
    success: outcome,
    streamed: false,
    cancelled: false,
    measured,
    finishReason: normaliseFinishReason(completion.nativeFinishReason) ?? "stop",
    nativeFinishReason: completion.nativeFinishReason,
    upstreamId: completion.upstreamId,
    endedAt,
  });
  await context.meter.persisted();
  endStage(chat.signal, "publish");
  sendJson(
    response,
    chat.surface.renderJson(
      withCitations(completion.body, chat.webResults),
      identity(chat.generationId, outcome.attempt, endedAt),
      {
        ...measured,
        cost: record.cost,
        chargedPico,
        isByok: record.isByok,
      },
    ),
  );
}

async function failJson(
  response: Response,
  chat: AdmittedChat,
  outcome: AttemptsFailure,
  context: EdgeContext,
): Promise<void> {
  const cancelled = outcome.failure.kind === "cancelled";
  const measured = await unservedMeasure(chat.prompt, cancelled, outcome.records.length > 0);
  finishGeneration(context, subjectOf(chat), {
    served: false,
    failure: outcome,
    streamed: false,
    measured,
    endedAt: context.now(),
  });
  await context.meter.persisted();
  if (cancelled) {
    response.end();
    return;
  }
  throw finalError(outcome.failure, { attempts: attemptsMetadata(outcome.records) });
}
