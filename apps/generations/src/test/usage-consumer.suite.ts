import type { TopicConfig } from "@gw/config";
import { deadLetterTopic, type EventBus, encodeEvent, KEY_CHANGED_V1 } from "@gw/events";
import { type DeadLetterObserver, observeDeadLetters } from "@gw/events/testing";
import { describeWith, type ServiceName, uniqueName } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { USAGE_GROUP_ID } from "../consumers/usage.js";
import { eventually, type GenerationsHarness, startGenerationsHarness } from "./harness.js";
import { publishUsage, usageEvent } from "./usage-events.js";

/**
 * The usage consumer's behaviour, parametrised by the event bus so the same suite runs on the
 * in-process bus and on Kafka.
 */
export function describeUsageConsumer(
  name: string,
  services: readonly ServiceName[],
  makeBus: (topics: TopicConfig) => Promise<EventBus>,
  deliveryTimeoutMs: number,
): void {
  describeWith(services, `usage consumer on ${name}`, () => {
    let harness: GenerationsHarness;
    let deadLetters: DeadLetterObserver;
    /** The dead letters of one account (the partition key), once the observer has caught up on it. */
    const deadLettersOf = async (accountId: string): Promise<string[]> => {
      await deadLetters.caughtUp(accountId, deliveryTimeoutMs + 15_000);
      return deadLetters.letters
        .filter((message) => message.key === accountId)
        .map((message) => message.headers["x-error"] ?? "");
    };

    beforeAll(async () => {
      harness = await startGenerationsHarness({ bus: makeBus });
      deadLetters = await observeDeadLetters(
        harness.bus,
        deadLetterTopic(harness.topics.usage, USAGE_GROUP_ID),
        uniqueName("test-dlq-observer"),
      );
    });

    afterAll(async () => {
      await deadLetters?.stop();
      await harness?.close();
    });

    const stored = (id: string) =>
      harness.database.db.selectFrom("generations").selectAll().where("id", "=", id).execute();
    const arrives = (id: string, timeoutMs = deliveryTimeoutMs) =>
      eventually(async () => (await stored(id)).length === 1, timeoutMs);

    it("records a usage event as one generation with every field", async () => {
      const usage = usageEvent({ accountId: uniqueName("acct_fields", "_") });
      publishUsage(harness.bus, harness.topics.usage, usage);
      await arrives(usage.generationId);
      const [row] = await stored(usage.generationId);
      expect(row).toMatchObject({
        id: usage.generationId,
        account_id: usage.accountId,
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
      const usage = usageEvent({ accountId: uniqueName("acct_twice", "_") });
      publishUsage(harness.bus, harness.topics.usage, usage);
      publishUsage(harness.bus, harness.topics.usage, { ...usage, costPico: 999n });
      // A later event of the same account (same partition key) is consumed only after both copies.
      const marker = usageEvent({ accountId: usage.accountId });
      publishUsage(harness.bus, harness.topics.usage, marker);
      await arrives(marker.generationId);
      const rows = await stored(usage.generationId);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.cost).toBe("0.000013650000");
      expect(await deadLettersOf(usage.accountId)).toEqual([]);
    });

    it("skips other event types on the topic and keeps going", async () => {
      const accountId = uniqueName("acct_other", "_");
      const other = encodeEvent(
        KEY_CHANGED_V1,
        { keyHash: "b".repeat(64), accountId, change: "deleted" },
        { accountId },
      );
      harness.bus.publish(harness.topics.usage, other.key, other.value, other.headers);
      const marker = usageEvent({ accountId });
      publishUsage(harness.bus, harness.topics.usage, marker);
      await arrives(marker.generationId);
      const count = await harness.database.db
        .selectFrom("generations")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("account_id", "=", accountId)
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1);
    });

    it("dead-letters an undecodable message and moves on", async () => {
      const accountId = uniqueName("acct_poison", "_");
      harness.bus.publish(harness.topics.usage, accountId, new Uint8Array([0xff, 0xff, 0xff, 0x01]));
      const marker = usageEvent({ accountId });
      publishUsage(harness.bus, harness.topics.usage, marker);
      await arrives(marker.generationId, deliveryTimeoutMs + 15_000);
      const letters = await deadLettersOf(accountId);
      expect(letters).toHaveLength(1);
      expect(letters[0]).not.toBe("");
    });
  });
}
