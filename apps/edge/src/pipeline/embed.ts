import type { Principal } from "@gw/auth";
import type { Response } from "express";
import { preferByok } from "../byok/plan.js";
import type { AccountProviders } from "../byok/providers.js";
import type { EdgeDeps } from "../deps.js";
import type { Availability } from "../planner/filters.js";
import { finalError, networkFailure } from "../providers/failure.js";
import type { CanonicalEmbeddings } from "../providers/types.js";
import type { EdgeRuntime } from "../runtime.js";
import type { ChatRequest, ProviderPreferences } from "../translate/openai/chat-request.js";
import type { ResponseIdentity } from "../translate/openai/chat-response.js";
import type { UsageRender } from "../translate/openai/usage.js";
import { computeCost } from "../usage/cost.js";
import { countTokens } from "../usage/tokenizer.js";
import { type TokenUsage, ZERO_USAGE } from "../usage/tokens.js";
import { admitPlanned } from "./admit-planned.js";
import { tryInOrder } from "./attempts.js";
import { attemptsMetadata, type GenerationSubject, generation, identity, type Measured } from "./context.js";
import { planFor } from "./plan-for.js";
import type { RequestStart } from "./serve.js";

const NO_BYOK: AccountProviders = new Map();

/** An embeddings request in canonical form, whichever surface it came from. */
export interface EmbedRequest {
  model: string;
  models?: string[] | undefined;
  provider?: ProviderPreferences | undefined;
  input: (string | number[])[];
  dimensions?: number | undefined;
  user?: string | undefined;
  taskType?: string | undefined;
  title?: string | undefined;
}

export interface EmbedInference {
  start: RequestStart;
  principal: Principal;
  request: EmbedRequest;
  availability: (providerId: string) => Availability;
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
 * Embeddings through the same pipeline as chat: plan (kind `embedding`, allow-lists applied) → one
 * Admit → providers with failover → render → meter. Providers that report no usage (Gemini) are
 * metered on the gateway's own count, flagged estimated.
 */
export async function serveEmbeddings(
  deps: EdgeDeps,
  runtime: EdgeRuntime,
  inference: EmbedInference,
  response: Response,
): Promise<void> {
  const { request, principal, start } = inference;
  const planning: ChatRequest = { model: request.model, messages: [] };
  if (request.models) planning.models = request.models;
  if (request.provider) planning.provider = request.provider;
  // The account's own keys (BYOK) go first, as on every surface; only adapters with embeddings count.
  const byok = deps.byok ? await deps.byok.forAccount(principal.accountId) : NO_BYOK;
  const availability = (providerId: string): Availability =>
    byok.get(providerId)?.embeddings ? { usable: true } : inference.availability(providerId);
  const plan = planFor(deps, runtime, { principal, request: planning, availability, kind: "embedding" });
  const attempts = preferByok(plan.attempts, byok);
  const promptTokens = await countInputTokens(request.input);
  const hold = await admitPlanned(deps, {
    leases: runtime.leases,
    generationId: start.generationId,
    principal,
    requestedModel: request.model,
    attempts,
    worstCase: { promptTokens, maxTokens: 0, choices: 1, imageCount: 0 },
  });
  const subject: GenerationSubject = {
    generationId: start.generationId,
    principal,
    startedAt: start.startedAt,
    surface: { apiType: inference.apiType },
    request: { model: request.model },
  };
  const pipeline = runtime.pipeline;
  const outcome = await tryInOrder<CanonicalEmbeddings>(
    attempts,
    start.signal,
    async (attempt) => {
      const adapter = (attempt.byok ?? deps.providers.get(attempt.endpoint.providerId))?.embeddings;
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
    pipeline,
  );
  const base = {
    streamed: false,
    nativeFinishReason: undefined,
    upstreamId: undefined,
    records: outcome.records,
  };
  if (!outcome.ok) {
    const cancelled = outcome.failure.kind === "cancelled";
    pipeline.meter.record(
      generation(subject, {
        ...base,
        attempt: outcome.lastAttempt,
        cancelled,
        served: false,
        measured: { usage: ZERO_USAGE, estimated: false },
        finishReason: "error",
        generationStartedAt: undefined,
        endedAt: pipeline.now(),
      }),
      hold,
    );
    if (cancelled) {
      response.end();
      return;
    }
    throw finalError(outcome.failure, { attempts: attemptsMetadata(outcome.records) });
  }
  const reported: TokenUsage | undefined = outcome.served.usage;
  const measured: Measured = reported
    ? { usage: { ...reported, completionTokens: 0 }, estimated: false }
    : { usage: { ...ZERO_USAGE, promptTokens }, estimated: true };
  const cost = computeCost(outcome.attempt.endpoint.pricing, measured.usage);
  const endedAt = pipeline.now();
  response.status(200).json(
    inference.render(outcome.served.vectors, identity(subject, outcome.attempt, endedAt), {
      ...measured,
      cost,
      isByok: outcome.attempt.byok !== undefined,
    }),
  );
  pipeline.meter.record(
    generation(subject, {
      ...base,
      attempt: outcome.attempt,
      cancelled: false,
      served: true,
      measured,
      finishReason: "stop",
      generationStartedAt: outcome.startedAt,
      endedAt,
    }),
    hold,
  );
}
