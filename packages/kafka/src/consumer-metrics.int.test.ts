import { registry } from "@gw/metrics";
import { describeWith, kafkaBrokers, uniqueName } from "@gw/testing";
import { expect, it } from "vitest";
import { KafkaEventBus } from "./kafka-bus.js";
import { ensureTopics } from "./topics.js";

// The consumer's series on a real broker: a message whose handler always fails is dead-lettered and
// counted, and every processed batch reports its size and the partition's lag.

async function sampleValue(name: string, labels: Record<string, string>, suffix = ""): Promise<number> {
  const metric = await registry.getSingleMetric(name)?.get();
  const sample = metric?.values.find(
    (entry) =>
      ((entry as { metricName?: string }).metricName ?? name) === `${name}${suffix}` &&
      Object.entries(labels).every(([key, wanted]) => entry.labels[key] === wanted),
  );
  return sample?.value ?? 0;
}

async function until(probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describeWith(["kafka"], "Kafka consumer metrics", () => {
  it("counts a dead-lettered message and reports batch size and lag per partition", async () => {
    const brokers = kafkaBrokers();
    const topic = uniqueName("metrics-dlq");
    const groupId = uniqueName("metrics-group");
    await ensureTopics(brokers, [{ name: topic, partitions: 1 }]);
    const bus = new KafkaEventBus({
      brokers,
      clientId: uniqueName("metrics"),
      producer: { lingerMs: 2 },
      consumer: { retry: { initialMs: 10, maxMs: 20 } },
    });
    try {
      await bus.subscribe({
        topic,
        groupId,
        maxAttempts: 2,
        handler: async () => {
          throw new Error("always fails");
        },
      });
      bus.publish(topic, "key", new TextEncoder().encode("poison"));
      await bus.flush();
      await until(
        async () =>
          (await sampleValue("gw_events_dead_lettered_total", { bus: "kafka", topic, group: groupId })) === 1,
      );
      await until(
        async () =>
          (await sampleValue("gw_kafka_consumer_batch_size", { topic, group: groupId }, "_count")) >= 1,
      );
      expect(await sampleValue("gw_kafka_consumer_lag", { topic, group: groupId, partition: "0" })).toBe(0);
      expect(
        await sampleValue("gw_kafka_publish_duration_seconds", { outcome: "ok" }, "_count"),
      ).toBeGreaterThan(0);
    } finally {
      await bus.close();
    }
  }, 60_000);
});
