// One usage event as the edge encodes it (the real envelope and payload), for the scripts that feed the
// consumers without an edge: consumer-throughput.mjs and metering-floor.mjs.
import { encodeEvent, newGenerationId, USAGE_RECORDED_V1, UsageRecorded } from "@gw/events";

/** The index-th event: one of 50 accounts, a small chat answer's tokens and cost. */
export function benchUsageEvent(index, accountPrefix) {
  const accountId = `${accountPrefix}${index % 50}`;
  const generationId = newGenerationId();
  const usage = UsageRecorded.fromPartial({
    generationId,
    accountId,
    keyHash: "c".repeat(64),
    model: "openai/gpt-4o-mini",
    provider: "openai",
    apiType: "chat",
    createdAt: new Date(),
    promptTokens: 11,
    completionTokens: 3,
    totalTokens: 14,
    costPico: 1_000_003n,
    attempts: [{ provider: "openai", model: "openai/gpt-4o-mini", status: 200, latencyMs: 5 }],
  });
  return encodeEvent(USAGE_RECORDED_V1, usage, { accountId, eventId: generationId });
}
