import type { Principal } from "@gw/auth";
import type { Hold } from "../admission/admit.js";
import type { PlannedAttempt } from "../planner/plan.js";
import type { ChatRequest } from "../translate/openai/chat-request.js";
import type { ResponseIdentity } from "../translate/openai/chat-response.js";
import { computeCost, ZERO_COST } from "../usage/cost.js";
import { estimateUsage, type PromptText } from "../usage/estimate.js";
import type { FinishReason } from "../usage/finish-reason.js";
import type { AttemptRecord, Generation } from "../usage/generation.js";
import { type TokenUsage, ZERO_USAGE } from "../usage/tokens.js";
import type { Surface } from "./surface.js";

/** One admitted chat request on its way through the providers. */
export interface ChatContext {
  generationId: string;
  principal: Principal;
  request: ChatRequest;
  prompt: PromptText;
  attempts: readonly PlannedAttempt[];
  hold: Hold;
  startedAt: number;
  /** Aborted when the client disconnects. */
  signal: AbortSignal;
  /** The API shape the client spoke, which the answer is rendered in. */
  surface: Surface;
}

export interface Measured {
  usage: TokenUsage;
  estimated: boolean;
  /** Images in the prompt, billed at the endpoint's per-image price. */
  images?: number;
}

/** The provider's usage when it sent any; otherwise our own count, marked estimated — never a silent zero. */
export async function measure(
  reported: TokenUsage | undefined,
  prompt: PromptText,
  completionTexts: () => readonly string[],
): Promise<Measured> {
  if (reported) return { usage: reported, estimated: false, images: prompt.imageCount };
  return {
    usage: await estimateUsage(prompt, completionTexts()),
    estimated: true,
    images: prompt.imageCount,
  };
}

export function identity(
  context: Pick<ChatContext, "generationId">,
  attempt: PlannedAttempt,
  now: number,
): ResponseIdentity {
  return {
    generationId: context.generationId,
    model: attempt.model.id,
    provider: attempt.endpoint.providerId,
    created: Math.floor(now / 1000),
  };
}

export interface GenerationOutcome {
  attempt: PlannedAttempt | undefined;
  streamed: boolean;
  cancelled: boolean;
  served: boolean;
  measured: Measured;
  finishReason: FinishReason;
  nativeFinishReason: string | undefined;
  upstreamId: string | undefined;
  generationStartedAt: number | undefined;
  endedAt: number;
  records: AttemptRecord[];
}

/** What a generation record needs of its request, whichever surface (chat-like or embeddings) served it. */
export type GenerationSubject = Pick<ChatContext, "generationId" | "principal" | "startedAt"> & {
  surface: Pick<Surface, "apiType">;
  request: Pick<ChatRequest, "model">;
};

export function generation(context: GenerationSubject, outcome: GenerationOutcome): Generation {
  const { attempt, measured } = outcome;
  return {
    generationId: context.generationId,
    accountId: context.principal.accountId,
    keyHash: context.principal.keyHash,
    apiType: context.surface.apiType,
    streamed: outcome.streamed,
    cancelled: outcome.cancelled,
    model: attempt?.model.id ?? context.request.model,
    provider: attempt?.endpoint.providerId ?? "",
    upstreamId: outcome.upstreamId,
    finishReason: outcome.finishReason,
    nativeFinishReason: outcome.nativeFinishReason,
    usage: measured.usage,
    estimated: measured.estimated,
    cost:
      attempt && (outcome.served || measured.estimated)
        ? computeCost(attempt.endpoint.pricing, measured.usage, measured.images)
        : ZERO_COST,
    isByok: attempt?.byok !== undefined,
    startedAt: context.startedAt,
    generationStartedAt: outcome.generationStartedAt,
    endedAt: outcome.endedAt,
    attempts: outcome.records,
    served: outcome.served,
  };
}

/**
 * What a request that no provider served costs: nothing, unless the client walked away while a
 * provider was already working on it — that provider read the prompt, so the prompt is metered.
 */
export async function unservedMeasure(
  context: Pick<ChatContext, "prompt">,
  cancelled: boolean,
  attempted: boolean,
): Promise<Measured> {
  if (!cancelled || !attempted) return { usage: ZERO_USAGE, estimated: false };
  return {
    usage: await estimateUsage(context.prompt, []),
    estimated: true,
    images: context.prompt.imageCount,
  };
}

/** The attempts as the client sees them in an error's metadata. */
export function attemptsMetadata(records: readonly AttemptRecord[]): Record<string, unknown>[] {
  return records.map((record) => ({ provider: record.provider, model: record.model, status: record.status }));
}
