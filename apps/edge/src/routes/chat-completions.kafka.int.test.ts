import { encodeKeyChange } from "@gw/events";
import { ensureTopics, KafkaEventBus } from "@gw/kafka";
import { describeWith, kafkaBrokers, uniqueName } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { readError } from "../test/http.js";
import { testKey } from "../test/principals.js";

describeWith(["kafka"], "the edge on a real Kafka broker", () => {
  const key = testKey("acct-kafka");
  const victim = testKey("acct-kafka-victim");
  const topics = { usage: uniqueName("edge-usage"), keyChanges: uniqueName("edge-key-changes") };
  let edge: EdgeHarness;

  beforeAll(async () => {
    const brokers = kafkaBrokers();
    await ensureTopics(brokers, [topics.usage, topics.keyChanges]);
    edge = await startEdgeHarness({
      keys: [key, victim],
      bus: new KafkaEventBus({ brokers, clientId: uniqueName("edge-test") }),
      // Long enough that only the key-change event, not the cache running out, can stop the victim's key.
      cacheTtlMs: 60_000,
      env: {
        TOPIC_USAGE: topics.usage,
        TOPIC_KEY_CHANGES: topics.keyChanges,
        AUTH_CACHE_MAX_TTL_MS: "60000",
        EDGE_INSTANCE_ID: uniqueName("edge"),
      },
    });
  });

  afterAll(async () => {
    await edge?.stop();
  });

  function chat(secret: string): Promise<Response> {
    return fetch(`${edge.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "demo/echo", messages: [{ role: "user", content: "hi" }] }),
    });
  }

  it("publishes one usage event per request, keyed by account, with the generation id as event id", async () => {
    const response = await chat(key.secret);
    expect(response.status).toBe(200);
    const id = response.headers.get("x-generation-id");
    await expect
      .poll(() => edge.usageEvents().filter((event) => event.generationId === id), { timeout: 30_000 })
      .toHaveLength(1);
    const event = edge.usageEvents().find((candidate) => candidate.generationId === id);
    expect(event).toMatchObject({
      accountId: "acct-kafka",
      model: "demo/echo",
      provider: "demo",
      apiType: "chat",
    });
    expect(event?.costPico).toBeGreaterThan(0n);
  });

  it("drops a cached key when its key-change event arrives over Kafka", async () => {
    expect((await chat(victim.secret)).status).toBe(200);
    victim.principal.disabled = true;
    expect((await chat(victim.secret)).status).toBe(200);
    const change = encodeKeyChange({
      keyHash: victim.principal.keyHash,
      accountId: "acct-kafka-victim",
      change: "disabled",
    });
    // The edge's group starts at the latest offset, so the event is re-sent until its consumer has joined.
    await expect
      .poll(
        async () => {
          edge.bus.publish(topics.keyChanges, change.key, change.value, change.headers);
          return (await chat(victim.secret)).status;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(401);
    expect((await readError(await chat(victim.secret))).reason).toBe("key_disabled");
  });
});
