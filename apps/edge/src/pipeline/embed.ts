import type { Principal } from "@gw/auth";
import type { Response } from "express";
import { externalUserOf } from "../canonical/attribution.js";
import type { ChatRequest } from "../canonical/chat-request.js";
import type { EmbedRequest } from "../canonical/embed-request.js";
import { type TokenUsage, ZERO_USAGE } from "../canonical/tokens.js";
import { finalError, networkFailure } from "../providers/failure.js";
import type { CanonicalEmbeddings } from "../providers/types.js";
import type { ResponseIdentity } from "../translate/openai/chat-response.js";
import type { UsageRender } from "../translate/openai/usage.js";
import type { Measured } from "../usage/measure.js";
import { countTokens } from "../usage/tokenizer.js";
import { tryInOrder } from "./attempts.js";
import type { EdgeContext } from "./edge-context.js";
import { attemptsMetadata, finishGeneration, type GenerationSubject, identity } from "./finish-generation.js";
import type { RequestStart } from "./serve.js";

export interface EmbedInference {
  start: RequestStart;
  principal: Principal;
  request: EmbedRequest;
  apiType: "embeddings";
  render(vectors: number[][], identity: ResponseIdentity, usage: UsageRender): unknown;
}

/** Input tokens counted with the gateway's tokenizer (token arrays count as their length). */
export async function countInputTokens(input: EmbedRequest["input"]): Promise<number> {
  const texts = input.filter((entry): entry is string => typeof entry === "string");
  const counts = await countTokens(texts);
  const arrays = input.reduce((total, entry) => total + (typeof entry === "string" ? 0 : entry.length), 0);
  return counts.reduce((total, count) => total + count, arrays);
}

/**
 * Embeddings through the same pipeline as chat: plan (kind `embedding`, allow-lists applied, the
 * account's own keys first) → admit → providers with failover → render → finish. Providers that report
 * no usage (Gemini) are metered on the gateway's own count, flagged estimated.
 */
export async function serveEmbeddings(
  context: EdgeContext,
  inference: EmbedInference,
  response: Response,
): Promise<void> {
  const { request, principal, start } = inference;
  const planning: ChatRequest = { model: request.model, messages: [] };
  if (request.models) planning.models = request.models;
  if (request.provider) planning.provider = request.provider;
  const route = await context.planner.route({ principal, request: planning, kind: "embedding" });
  const promptTokens = await countInputTokens(request.input);
  const hold = await context.admission.admitPlanned({
    generationId: start.generationId,
    principal,
    requestedModel: request.model,
    attempts: route.attempts,
    worstCase: { promptTokens, maxTokens: 0, choices: 1, imageCount: 0 },
  });
  start.announce();
  const subject: GenerationSubject = {
    generationId: start.generationId,
    principal,
    startedAt: start.startedAt,
    apiType: inference.apiType,
    requestedModel: request.model,
    hold,
    attribution: start.attribution,
    externalUser: externalUserOf(request.user),
  };
  const outcome = await tryInOrder<CanonicalEmbeddings>(
    route.attempts,
    start.signal,
    async (attempt) => {
      const adapter = route.adapterFor(attempt)?.embeddings;
      if (!adapter) return { ok: false, failure: networkFailure("protocol", "provider adapter is gone") };
      const result = await adapter.embed({
        input: request.input,
        upstreamModel: attempt.endpoint.upstreamModel,
        dimensions: request.dimensions,
        user: request.user,
        taskType: request.taskType,
        title: request.title,
        signal: start.signal,
      });
      return result.ok ? { ok: true, status: result.status, served: result.embeddings } : result;
    },
    context,
  );
  if (!outcome.ok) {
    finishGeneration(context, subject, {
      served: false,
      failure: outcome,
      streamed: false,
      measured: { usage: ZERO_USAGE, estimated: false },
      endedAt: context.now(),
    });
    await context.meter.persisted();
    if (outcome.failure.kind === "cancelled") {
      response.end();
      return;
    }
    throw finalError(outcome.failure, { attempts: attemptsMetadata(outcome.records) });
  }
  const reported: TokenUsage | undefined = outcome.served.usage;
  const measured: Measured = reported
    ? { usage: { ...reported, completionTokens: 0 }, estimated: false }
    : { usage: { ...ZERO_USAGE, promptTokens }, estimated: true };
  const endedAt = context.now();
  const { record, chargedPico } = finishGeneration(context, subject, {
    served: true,
    success: outcome,
    streamed: false,
    cancelled: false,
    measured,
    finishReason: "stop",
    nativeFinishReason: undefined,
    upstreamId: undefined,
    endedAt,
  });
  await context.meter.persisted();
  response.status(200).json(
    inference.render(outcome.served.vectors, identity(start.generationId, outcome.attempt, endedAt), {
      ...measured,
      cost: record.cost,
      chargedPico,
      isByok: record.isByok,
    }),
  );
}
