import type { ConsumedMessage } from "@gw/events";
import { describeWith, kafkaBrokers, uniqueName } from "@gw/testing";
import { afterEach, expect, it } from "vitest";
import { KafkaEventBus } from "./kafka-bus.js";
import { ensureTopics } from "./topics.js";

// How consumers fetch on a real broker: an idle consumer sleeps instead of waking every millisecond
// (our kafkajs patch), and a lingering subscription gets events that arrive close together in one batch.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(probe: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(20);
  }
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A bus whose subscription on a fresh topic records each batch's size; resolves once it consumes. */
async function subscribed(lingerMs: number | undefined) {
  const brokers = kafkaBrokers();
  const topic = uniqueName("fetch-shape");
  await ensureTopics(brokers, [{ name: topic, partitions: 1 }]);
  const bus = new KafkaEventBus({ brokers, clientId: uniqueName("fetch-shape"), producer: { lingerMs: 0 } });
  closers.push(() => bus.close());
  const batches: number[] = [];
  const subscription = await bus.subscribe({
    topic,
    groupId: uniqueName("fetch-shape-group"),
    ...(lingerMs === undefined ? {} : { lingerMs }),
    batchHandler: async (messages: ConsumedMessage[]) => {
      batches.push(messages.length);
    },
  });
  closers.push(() => subscription.stop());
  // The group has joined once a first event comes through; what is counted starts after it.
  bus.publish(topic, "k", Buffer.from("ready"));
  await bus.flush();
  await until(() => batches.length > 0);
  batches.length = 0;
  return { bus, topic, batches };
}

describeWith(["kafka"], "Kafka consumer fetching", () => {
  it("an idle consumer does not re-arm kafkajs's pending-request check every millisecond", async () => {
    await subscribed(undefined);
    const realSetTimeout = globalThis.setTimeout;
    let checks = 0;
    // kafkajs calls the global setTimeout at call time; count the ones its request queue arms.
    globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
      if (new Error().stack?.includes("requestQueue")) checks++;
      return realSetTimeout(...args);
    }) as typeof setTimeout;
    try {
      await sleep(1000);
    } finally {
      globalThis.setTimeout = realSetTimeout;
    }
    // Unpatched, the queue re-armed a 1 ms timer for as long as nothing was pending: ~1,000 a second.
    expect(checks).toBeLessThan(20);
  });

  it.each([
    { lingerMs: 400, most: 2, least: 1 },
    { lingerMs: undefined, most: 8, least: 4 },
  ])(
    "events 50 ms apart reach a subscription with linger $lingerMs in $least to $most batches",
    async ({ lingerMs, most, least }) => {
      const { bus, topic, batches } = await subscribed(lingerMs);
      for (let index = 0; index < 8; index++) {
        bus.publish(topic, "k", Buffer.from(`event-${index}`));
        await bus.flush();
        await sleep(50);
      }
      await until(() => batches.reduce((sum, size) => sum + size, 0) === 8);
      expect(batches.length).toBeGreaterThanOrEqual(least);
      expect(batches.length).toBeLessThanOrEqual(most);
    },
  );
});
