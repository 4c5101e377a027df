import { type EncodedEvent, encodeEvent, USAGE_RECORDED_V1, type UsageRecorded } from "@gw/events";
import type { Generation } from "../canonical/generation.js";
import { totalTokens } from "../canonical/tokens.js";

/** The `usage.recorded` v1 payload: every field, so consumers never need to ask the edge anything. */
export function usageRecorded(generation: Generation, leaseId = ""): UsageRecorded {
  const { usage, cost } = generation;
  return {
    generationId: generation.generationId,
    accountId: generation.accountId,
    keyHash: generation.keyHash,
    model: generation.model,
    provider: generation.provider,
    apiType: generation.apiType,
    streamed: generation.streamed,
    cancelled: generation.cancelled,
    finishReason: generation.finishReason,
    nativeFinishReason: generation.nativeFinishReason ?? "",
    upstreamId: generation.upstreamId ?? "",
    createdAt: new Date(generation.startedAt),
    latencyMs: elapsed(generation.startedAt, generation.endedAt),
    generationTimeMs:
      generation.generationStartedAt === undefined
        ? 0
        : elapsed(generation.generationStartedAt, generation.endedAt),
    isByok: generation.isByok,
    estimated: generation.estimated,
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    totalTokens: totalTokens(usage),
    cachedTokens: usage.cachedTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
    reasoningTokens: usage.reasoningTokens,
    costPico: cost.totalPico,
    upstreamPromptCostPico: cost.promptPico,
    upstreamCompletionCostPico: cost.completionPico,
    attempts: generation.attempts.map((attempt) => ({ ...attempt })),
    leaseId,
  };
}

/** Envelope with event id = generation id (consumers are idempotent on it) and key = account id. */
export function encodeUsageEvent(generation: Generation, leaseId = ""): EncodedEvent {
  return encodeEvent(USAGE_RECORDED_V1, usageRecorded(generation, leaseId), {
    accountId: generation.accountId,
    eventId: generation.generationId,
    occurredAt: new Date(generation.endedAt),
  });
}

function elapsed(from: number, to: number): number {
  return Math.max(0, Math.round(to - from));
}
