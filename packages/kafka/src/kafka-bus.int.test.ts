import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeEventBusContract } from "@gw/events/contract";
import { describeWith, kafkaBrokers, portOpen, uniqueName } from "@gw/testing";
import { afterEach, describe, expect, it } from "vitest";
import { KafkaEventBus } from "./kafka-bus.js";
import { ensureTopics } from "./topics.js";

describeWith(["kafka"], "KafkaEventBus on a real broker", () => {
  describeEventBusContract("KafkaEventBus", () => {
    const brokers = kafkaBrokers();
    return {
      createBus: async () =>
        new KafkaEventBus({
          brokers,
          clientId: uniqueName("contract"),
          producer: { lingerMs: 2 },
          consumer: { retry: { initialMs: 20, maxMs: 200 } },
        }),
      createTopic: async (prefix, partitions = 1) => {
        const name = uniqueName(`contract-${prefix}`);
        await ensureTopics(brokers, [{ name, partitions }]);
        return name;
      },
      groupId: (prefix) => uniqueName(`group-${prefix}`),
      timeoutMs: 30_000,
    };
  });

  describe("while the broker is unreachable", () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it("holds events in memory, then on disk, and replays them in order later", async () => {
      const directory = mkdtempSync(join(tmpdir(), "gw-spool-"));
      cleanups.push(async () => rmSync(directory, { recursive: true, force: true }));
      const clientId = uniqueName("spooling");
      const deadBroker = "127.0.0.1:1";
      expect(await portOpen("127.0.0.1", 1)).toBe(false);
      const topic = uniqueName("spooled");
      await ensureTopics(kafkaBrokers(), [{ name: topic, partitions: 1 }]);

      const offline = new KafkaEventBus({
        brokers: [deadBroker],
        clientId,
        spool: { directory },
        producer: { maxQueued: 10, retry: { initialMs: 50, maxMs: 200 } },
        closeTimeoutMs: 300,
      });
      const count = 60;
      for (let index = 0; index < count; index++)
        offline.publish(topic, "account-1", Buffer.from(`e${index}`));
      expect(offline.backlog()).toBe(count);
      await offline.close();
      expect(offline.dropped()).toBe(0);
      const spoolFile = join(directory, `${clientId}.spool.jsonl`);
      expect(readFileSync(spoolFile, "utf8").trim().split("\n")).toHaveLength(count);

      // A later process with the same spool and a reachable broker delivers everything, in order.
      const online = new KafkaEventBus({ brokers: kafkaBrokers(), clientId, spool: { directory } });
      cleanups.push(() => online.close());
      expect(online.backlog()).toBe(count);
      await online.flush();
      expect(online.backlog()).toBe(0);
      // Deleted, or emptied in place when this process had it open for appending.
      expect(existsSync(spoolFile) ? statSync(spoolFile).size : 0).toBe(0);

      const received: string[] = [];
      await online.subscribe({
        topic,
        groupId: uniqueName("spool-reader"),
        handler: async (message) => {
          received.push(Buffer.from(message.value).toString());
        },
      });
      const deadline = Date.now() + 30_000;
      while (received.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(received).toEqual(Array.from({ length: count }, (_, index) => `e${index}`));
    });
  });
});
