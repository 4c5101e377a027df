import {
  type EventPublisher,
  encodeEvent,
  newGenerationId,
  USAGE_RECORDED_V1,
  type UsageRecorded,
} from "@gw/events";

/** A complete usage event as the edge emits it, with every field set to a distinct value. */
export function usageEvent(overrides: Partial<UsageRecorded> = {}): UsageRecorded {
  return {
    generationId: newGenerationId(),
    accountId: "acct_owner",
    keyHash: "a".repeat(64),
    // Billing's field; the generation record does not keep it (usageFromRow answers "").
    leaseId: "",
    model: "openai/gpt-4o-mini",
    provider: "openai",
    apiType: "chat",
    streamed: true,
    cancelled: false,
    finishReason: "stop",
    nativeFinishReason: "stop",
    upstreamId: "chatcmpl-123",
    createdAt: new Date(),
    latencyMs: 850,
    generationTimeMs: 610,
    isByok: false,
    estimated: false,
    promptTokens: 11,
    completionTokens: 20,
    totalTokens: 31,
    cachedTokens: 3,
    cacheWriteTokens: 2,
    reasoningTokens: 5,
    costPico: 13_650_000n,
    upstreamPromptCostPico: 1_650_000n,
    upstreamCompletionCostPico: 12_000_000n,
    attempts: [
      { provider: "together", model: "openai/gpt-4o-mini", status: 429, latencyMs: 40, isByok: false },
      { provider: "openai", model: "openai/gpt-4o-mini", status: 200, latencyMs: 800, isByok: false },
    ],
    ...overrides,
  };
}

/** Publishes a usage event the way the edge does: envelope id = generation id, key = account id. */
export function publishUsage(bus: EventPublisher, topic: string, usage: UsageRecorded): void {
  const event = encodeEvent(USAGE_RECORDED_V1, usage, {
    accountId: usage.accountId,
    eventId: usage.generationId,
  });
  bus.publish(topic, event.key, event.value, event.headers);
}
