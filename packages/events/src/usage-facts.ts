import { newGenerationId } from "./ids.js";
import type { CatalogueCost, UsageFacts } from "./usage-event.js";

/** A catalogue price from its parts, total included, as the edge's computeCost returns it. */
export function catalogueCost(promptPico: bigint, completionPico: bigint, requestPico = 0n): CatalogueCost {
  return { promptPico, completionPico, requestPico, totalPico: promptPico + completionPico + requestPico };
}

/**
 * A finished request as the edge records it (its Generation), every field set, for consumers' tests:
 * they pass it to the edge's own encoder (`encodeUsageRecorded`) instead of writing event payloads.
 */
export function exampleUsageFacts(overrides: Partial<UsageFacts> = {}): UsageFacts {
  const startedAt = Date.now() - 850;
  return {
    generationId: newGenerationId(),
    accountId: "acct_owner",
    keyHash: "a".repeat(64),
    apiType: "chat",
    streamed: true,
    cancelled: false,
    model: "openai/gpt-4o-mini",
    provider: "openai",
    upstreamId: "chatcmpl-123",
    finishReason: "stop",
    nativeFinishReason: "stop",
    usage: {
      promptTokens: 11,
      completionTokens: 20,
      cachedTokens: 3,
      cacheWriteTokens: 2,
      reasoningTokens: 5,
    },
    estimated: false,
    cost: catalogueCost(1_650_000n, 12_000_000n),
    isByok: false,
    startedAt,
    generationStartedAt: startedAt + 240,
    endedAt: startedAt + 850,
    attempts: [
      { provider: "together", model: "openai/gpt-4o-mini", status: 429, latencyMs: 40, isByok: false },
      { provider: "openai", model: "openai/gpt-4o-mini", status: 200, latencyMs: 800, isByok: false },
    ],
    ...overrides,
  };
}
