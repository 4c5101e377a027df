import { deadLetterTopic, encodeEvent, KEY_CHANGED_V1 } from "@gw/events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, type GenerationsHarness, startGenerationsHarness, TOPICS } from "../test/harness.js";
import { publishUsage, usageEvent } from "../test/usage-events.js";
import { USAGE_GROUP_ID } from "./usage.js";

let harness: GenerationsHarness;
const deadLettered: string[] = [];

beforeAll(async () => {
  harness = await startGenerationsHarness();
  await harness.bus.subscribe({
    topic: deadLetterTopic(TOPICS.usage, USAGE_GROUP_ID),
    groupId: "test-dlq-observer",
    handler: async (message) => {
      deadLettered.push(message.headers["x-error"] ?? "");
    },
  });
});

afterAll(async () => {
  await harness?.close();
});

async function stored(id: string) {
  return harness.database.db.selectFrom("generations").selectAll().where("id", "=", id).execute();
}

describe("usage consumer", () => {
  it("records a usage event as one generation with every field", async () => {
    const usage = usageEvent({ accountId: "acct_fields" });
    publishUsage(harness.bus, TOPICS.usage, usage);
    await eventually(async () => (await stored(usage.generationId)).length === 1);
    const [row] = await stored(usage.generationId);
    expect(row).toMatchObject({
      id: usage.generationId,
      account_id: "acct_fields",
      key_hash: usage.keyHash,
      model: "openai/gpt-4o-mini",
      provider: "openai",
      api_type: "chat",
      streamed: true,
      cancelled: false,
      finish_reason: "stop",
      native_finish_reason: "stop",
      upstream_id: "chatcmpl-123",
      created_at: usage.createdAt,
      latency_ms: 850,
      generation_time_ms: 610,
      is_byok: false,
      estimated: false,
      prompt_tokens: 11,
      completion_tokens: 20,
      total_tokens: 31,
      cached_tokens: 3,
      cache_write_tokens: 2,
      reasoning_tokens: 5,
      cost: "0.000013650000",
      upstream_inference_cost: "0.000013650000",
      upstream_inference_prompt_cost: "0.000001650000",
      upstream_inference_completions_cost: "0.000012000000",
      attempts: [
        { provider: "together", model: "openai/gpt-4o-mini", status: 429, latency_ms: 40, is_byok: false },
        { provider: "openai", model: "openai/gpt-4o-mini", status: 200, latency_ms: 800, is_byok: false },
      ],
    });
  });

  it("is idempotent: the same event delivered twice leaves one row and no dead letter", async () => {
    const usage = usageEvent({ accountId: "acct_twice" });
    publishUsage(harness.bus, TOPICS.usage, usage);
    publishUsage(harness.bus, TOPICS.usage, { ...usage, costPico: 999n });
    // A later event of the same account (same partition key) is consumed only after both copies.
    const marker = usageEvent({ accountId: "acct_twice" });
    publishUsage(harness.bus, TOPICS.usage, marker);
    await eventually(async () => (await stored(marker.generationId)).length === 1);
    const rows = await stored(usage.generationId);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.cost).toBe("0.000013650000");
    expect(deadLettered).toEqual([]);
  });

  it("skips other event types on the topic and keeps going", async () => {
    const other = encodeEvent(
      KEY_CHANGED_V1,
      { keyHash: "b".repeat(64), accountId: "acct_other", change: "deleted" },
      { accountId: "acct_other" },
    );
    harness.bus.publish(TOPICS.usage, other.key, other.value, other.headers);
    const marker = usageEvent({ accountId: "acct_other" });
    publishUsage(harness.bus, TOPICS.usage, marker);
    await eventually(async () => (await stored(marker.generationId)).length === 1);
    const count = await harness.database.db
      .selectFrom("generations")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("account_id", "=", "acct_other")
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it("dead-letters an undecodable message and moves on", async () => {
    const before = deadLettered.length;
    harness.bus.publish(TOPICS.usage, "acct_poison", new Uint8Array([0xff, 0xff, 0xff, 0x01]));
    const marker = usageEvent({ accountId: "acct_poison" });
    publishUsage(harness.bus, TOPICS.usage, marker);
    await eventually(async () => (await stored(marker.generationId)).length === 1, 10_000);
    expect(deadLettered).toHaveLength(before + 1);
  });
});
