import { encodeUsageRecorded, type UsageAttempt } from "@gw/events";
import { exampleUsageFacts } from "@gw/events/testing";
import { ensureTopics, KafkaEventBus } from "@gw/kafka";
import { describeWith, kafkaBrokers, uniqueName } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type HealthHarness, startHealthHarness } from "./control-plane.js";

// The health aggregator (apps/generations/src/health) on a real broker and database: usage events in,
// figures out (what the edges poll over gRPC and the keys app's endpoints view shows, polled from
// generations).

const MODEL = "meta-llama/llama-3.3-70b-instruct";

describeWith(["postgres", "kafka"], "the endpoint health aggregator", () => {
  let harness: HealthHarness;
  let apiKey: string;

  beforeAll(async () => {
    harness = await startHealthHarness({
      bus: async (topics) => {
        await ensureTopics(kafkaBrokers(), [topics.usage, topics.keyChanges, topics.payments]);
        return new KafkaEventBus({ brokers: kafkaBrokers(), clientId: uniqueName("keys-health") });
      },
    });
    apiKey = (await harness.account()).managementKey;
  }, 60_000);

  afterAll(async () => {
    await harness?.close();
  });

  function publish(
    attempts: UsageAttempt[],
    overrides: Parameters<typeof exampleUsageFacts>[0] = {},
  ): string {
    const now = Date.now();
    const facts = exampleUsageFacts({
      model: MODEL,
      provider: "together",
      startedAt: now - 1_000,
      generationStartedAt: now - 500,
      endedAt: now,
      attempts,
      ...overrides,
    });
    const event = encodeUsageRecorded(facts, { byokFeePercent: 0 });
    harness.bus.publish(harness.topics.usage, event.key, event.value, event.headers);
    return facts.generationId;
  }

  async function endpoint(provider: string): Promise<Record<string, unknown> | undefined> {
    const response = await harness.request("GET", `/api/v1/models/${MODEL}/endpoints`, { key: apiKey });
    const data = response.body.data as Record<string, unknown>[];
    return data.find((candidate) => candidate.provider_id === provider);
  }

  const served = (latencyMs: number): UsageAttempt => ({
    provider: "together",
    model: MODEL,
    status: 200,
    latencyMs,
    isByok: false,
  });

  it("shows null figures for an endpoint with no traffic, never a made-up number", async () => {
    expect(await endpoint("together")).toMatchObject({
      status: null,
      uptime_last_30m: null,
      latency_last_30m: null,
      throughput_last_30m: null,
    });
  });

  it("counts the provider's faults as failures and the caller's not; latency and throughput from histograms", async () => {
    // 1 provider failure, 1 caller error (not counted), 3 served: uptime 3/4.
    publish([
      { ...served(40), status: 503, fault: "provider" },
      { ...served(30), status: 400, fault: "caller" },
      served(180),
    ]);
    // 120 completion tokens over the serving attempt's 500 ms: 240 tokens/s.
    publish([served(180)], {
      usage: { ...exampleUsageFacts().usage, completionTokens: 120 },
    });
    publish([served(450)], { usage: { ...exampleUsageFacts().usage, completionTokens: 120 } });
    // An endpoint outside the catalogue (an unpriced proxy call) is not kept.
    publish([{ ...served(10), model: "acme/unknown" }]);
    await expect
      .poll(async () => (await endpoint("together"))?.uptime_last_30m, { timeout: 20_000 })
      .toBe(75);
    const figures = await endpoint("together");
    expect(figures?.status).toBe(-1);
    // p50 of 180, 180, 450 → the 200 ms bucket; p90/p99 → the 500 ms bucket.
    expect(figures?.latency_last_30m).toEqual({ p50: 200, p90: 500, p99: 500 });
    expect(figures?.throughput_last_30m).toBe(250);
    expect(
      await harness.database.db
        .withTables<{ endpoint_health_minutes: { model: string } }>()
        .selectFrom("endpoint_health_minutes")
        .select("model")
        .where("model", "=", "acme/unknown")
        .execute(),
    ).toEqual([]);
  });

  it("a redelivered event counts once", async () => {
    const before = (await endpoint("together"))?.uptime_last_30m;
    const now = Date.now();
    const facts = exampleUsageFacts({
      model: MODEL,
      provider: "together",
      startedAt: now - 10,
      endedAt: now,
      attempts: [{ ...served(50), status: 500, fault: "provider" }],
    });
    const event = encodeUsageRecorded(facts, { byokFeePercent: 0 });
    harness.bus.publish(harness.topics.usage, event.key, event.value, event.headers);
    harness.bus.publish(harness.topics.usage, event.key, event.value, event.headers);
    // 3 served of 5 attempts, not 3 of 6.
    await expect
      .poll(async () => (await endpoint("together"))?.uptime_last_30m, { timeout: 20_000 })
      .toBe(60);
    expect(before).toBe(75);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await endpoint("together"))?.uptime_last_30m).toBe(60);
  });
});
