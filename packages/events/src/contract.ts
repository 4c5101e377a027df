import { afterEach, describe, expect, it } from "vitest";
import type { ConsumedMessage } from "./bus.js";
import { deadLetterTopic } from "./bus.js";
import { describeBatchHandlerContract } from "./contract-batch.js";
import type { ContractContext, EventBusContractHarness } from "./contract-context.js";
import { read, sleep, text, waitFor } from "./contract-util.js";
import { observeDeadLetters } from "./dead-letters.js";

export type { ContractContext, EventBusContractHarness } from "./contract-context.js";

/**
 * The EventBus semantics every implementation must keep (see bus.ts), run against each of them:
 * `describeEventBusContract("InProcessEventBus", () => ({ … }))`. The harness factory runs inside
 * the tests, so it may read values that only exist at run time (brokers from the global setup).
 */
export function describeEventBusContract(
  name: string,
  harnessFactory: () => EventBusContractHarness | Promise<EventBusContractHarness>,
): void {
  describe(`EventBus contract: ${name}`, () => {
    let cleanups: Array<() => Promise<void>> = [];

    afterEach(async () => {
      const pending = cleanups.reverse();
      cleanups = [];
      for (const cleanup of pending) await cleanup();
    });

    async function setup(): Promise<ContractContext> {
      const harness = await harnessFactory();
      const bus = await harness.createBus();
      cleanups.push(() => bus.close());
      const timeoutMs = harness.timeoutMs ?? 20_000;
      return {
        harness,
        bus,
        subscribe: async (options) => {
          const subscription = await bus.subscribe(options);
          cleanups.push(() => subscription.stop());
          return subscription;
        },
        waitFor: (condition, what) => waitFor(condition, what, timeoutMs),
        onCleanup: (cleanup) => cleanups.push(cleanup),
      };
    }

    describeBatchHandlerContract(setup);

    it("delivers a published message with its key, value and headers", async () => {
      const { harness, bus, subscribe, waitFor } = await setup();
      const topic = await harness.createTopic("roundtrip");
      const received: ConsumedMessage[] = [];
      bus.publish(topic, "account-1", text("before subscribe"), { "event-type": "test.v1", trace: "abc" });
      await subscribe({
        topic,
        groupId: harness.groupId("roundtrip"),
        handler: async (message) => {
          received.push(message);
        },
      });
      bus.publish(topic, "account-2", text("after subscribe"));
      await waitFor(() => received.length >= 2, "two messages");

      const first = received.find((message) => read(message) === "before subscribe");
      expect(first).toMatchObject({
        topic,
        key: "account-1",
        headers: { "event-type": "test.v1", trace: "abc" },
      });
      expect(typeof first?.partition).toBe("number");
      expect(first?.offset).toMatch(/^\d+$/);
      const second = received.find((message) => read(message) === "after subscribe");
      expect(second).toMatchObject({ topic, key: "account-2" });
      expect(received).toHaveLength(2);
    });

    it("keeps per-key order across many interleaved messages", async () => {
      const { harness, bus, subscribe, waitFor } = await setup();
      const topic = await harness.createTopic("order", 3);
      const keys = ["acct-a", "acct-b", "acct-c", "acct-d"];
      const perKey = 150;
      for (let index = 0; index < perKey; index++)
        for (const key of keys) bus.publish(topic, key, text(String(index)));
      const seen = new Map<string, number[]>(keys.map((key) => [key, []]));
      let total = 0;
      await subscribe({
        topic,
        groupId: harness.groupId("order"),
        handler: async (message) => {
          seen.get(message.key)?.push(Number(read(message)));
          total++;
        },
      });
      await waitFor(() => total >= keys.length * perKey, `${keys.length * perKey} messages`);
      const expected = Array.from({ length: perKey }, (_, index) => index);
      for (const key of keys) expect(seen.get(key), key).toEqual(expected);
    });

    it("retries a failing handler and commits only after it succeeds", async () => {
      const { harness, bus, subscribe, waitFor } = await setup();
      const topic = await harness.createTopic("retry");
      const groupId = harness.groupId("retry");
      const attempts = new Map<string, number>();
      const handled: string[] = [];
      for (const value of ["m0", "m1", "m2"]) bus.publish(topic, "account-1", text(value));
      await subscribe({
        topic,
        groupId,
        maxAttempts: 5,
        handler: async (message) => {
          const value = read(message);
          const attempt = (attempts.get(value) ?? 0) + 1;
          attempts.set(value, attempt);
          if (value === "m1" && attempt <= 2) throw new Error("transient failure");
          handled.push(value);
        },
      });
      await waitFor(() => handled.length >= 3, "three handled messages");
      expect(handled).toEqual(["m0", "m1", "m2"]);
      expect(attempts.get("m1")).toBe(3);

      // A message that succeeded on a retry is not dead-lettered. A dead letter would have been
      // published before m2 was handled; the observer's sentinel, under the same key, comes after it.
      const deadLetters = await observeDeadLetters(
        bus,
        deadLetterTopic(topic, groupId),
        harness.groupId("retry-dlq"),
      );
      cleanups.push(() => deadLetters.stop());
      await deadLetters.caughtUp("account-1", harness.timeoutMs ?? 20_000);
      expect(deadLetters.letters.map(read)).toEqual([]);
    });

    it("does not commit a message whose handler never succeeded", async () => {
      const { harness, bus, subscribe, waitFor } = await setup();
      const topic = await harness.createTopic("uncommitted");
      const groupId = harness.groupId("uncommitted");
      bus.publish(topic, "account-1", text("fragile"));
      let attempts = 0;
      const failing = await bus.subscribe({
        topic,
        groupId,
        maxAttempts: 1000,
        handler: async () => {
          attempts++;
          throw new Error("database unavailable");
        },
      });
      cleanups.push(() => failing.stop());
      await waitFor(() => attempts >= 2, "two failed attempts");
      await failing.stop();

      const received: string[] = [];
      await subscribe({
        topic,
        groupId,
        handler: async (message) => {
          received.push(read(message));
        },
      });
      await waitFor(() => received.includes("fragile"), "the message again after the restart");
      expect(received).toEqual(["fragile"]);
    });

    it("continues after the last committed message when a group restarts", async () => {
      const { harness, bus, subscribe, waitFor } = await setup();
      const topic = await harness.createTopic("restart");
      const groupId = harness.groupId("restart");
      for (let index = 0; index < 5; index++) bus.publish(topic, "account-1", text(`m${index}`));
      const firstRun: string[] = [];
      const first = await bus.subscribe({
        topic,
        groupId,
        handler: async (message) => {
          firstRun.push(read(message));
        },
      });
      cleanups.push(() => first.stop());
      await waitFor(() => firstRun.length >= 5, "five messages in the first run");
      await first.stop();

      for (let index = 5; index < 10; index++) bus.publish(topic, "account-1", text(`m${index}`));
      await bus.flush();
      const secondRun: string[] = [];
      await subscribe({
        topic,
        groupId,
        handler: async (message) => {
          secondRun.push(read(message));
        },
      });
      await waitFor(() => secondRun.includes("m9"), "m9 in the second run");
      expect(firstRun).toEqual(["m0", "m1", "m2", "m3", "m4"]);
      // At least once allows re-delivering the message in flight at stop (m4), nothing earlier.
      const redelivered = secondRun.filter((value) => firstRun.includes(value));
      expect(redelivered.filter((value) => value !== "m4")).toEqual([]);
      expect(secondRun.filter((value) => !firstRun.includes(value))).toEqual(["m5", "m6", "m7", "m8", "m9"]);
    });

    it("lets the in-flight handler finish and commit when stopped", async () => {
      const { harness, bus, subscribe, waitFor } = await setup();
      const topic = await harness.createTopic("stop");
      const groupId = harness.groupId("stop");
      bus.publish(topic, "account-1", text("slow"));
      let started = false;
      let finished = false;
      const first = await bus.subscribe({
        topic,
        groupId,
        handler: async () => {
          started = true;
          await sleep(300);
          finished = true;
        },
      });
      cleanups.push(() => first.stop());
      await waitFor(() => started, "the slow handler to start");
      await first.stop();
      expect(finished).toBe(true);

      bus.publish(topic, "account-1", text("next"));
      await bus.flush();
      const secondRun: string[] = [];
      await subscribe({
        topic,
        groupId,
        handler: async (message) => {
          secondRun.push(read(message));
        },
      });
      await waitFor(() => secondRun.includes("next"), "the next message");
      expect(secondRun).toEqual(["next"]);
    });

    it("gives every consumer group every message", async () => {
      const { harness, bus, subscribe, waitFor } = await setup();
      const topic = await harness.createTopic("groups", 2);
      const count = 40;
      for (let index = 0; index < count; index++)
        bus.publish(topic, `account-${index % 7}`, text(`m${index}`));
      const groupA = new Set<string>();
      const groupB = new Set<string>();
      await subscribe({
        topic,
        groupId: harness.groupId("groups-a"),
        handler: async (message) => {
          groupA.add(read(message));
        },
      });
      await subscribe({
        topic,
        groupId: harness.groupId("groups-b"),
        handler: async (message) => {
          groupB.add(read(message));
        },
      });
      await waitFor(() => groupA.size >= count && groupB.size >= count, "both groups to see every message");
      expect(groupA.size).toBe(count);
      expect(groupB.size).toBe(count);
    });

    it("dead-letters a poison message with its error and keeps the partition moving", async () => {
      const { harness, bus, subscribe, waitFor } = await setup();
      const topic = await harness.createTopic("poison");
      const groupId = harness.groupId("poison");
      const handled: string[] = [];
      let poisonAttempts = 0;
      for (const value of ["p0", "p1", "poison", "p3", "p4"])
        bus.publish(topic, "account-1", text(value), { "event-type": "test.v1" });
      await subscribe({
        topic,
        groupId,
        maxAttempts: 3,
        handler: async (message) => {
          if (read(message) === "poison") {
            poisonAttempts++;
            throw new Error("cannot handle this one");
          }
          handled.push(read(message));
        },
      });
      const deadLetters: ConsumedMessage[] = [];
      await subscribe({
        topic: deadLetterTopic(topic, groupId),
        groupId: harness.groupId("poison-dlq"),
        handler: async (message) => {
          deadLetters.push(message);
        },
      });
      await waitFor(
        () => handled.length >= 4 && deadLetters.length >= 1,
        "later messages and the dead letter",
      );
      expect(handled).toEqual(["p0", "p1", "p3", "p4"]);
      expect(poisonAttempts).toBe(3);
      expect(deadLetters).toHaveLength(1);
      expect(read(deadLetters[0] as ConsumedMessage)).toBe("poison");
      expect(deadLetters[0]).toMatchObject({
        key: "account-1",
        headers: { "event-type": "test.v1", "x-error": "cannot handle this one" },
      });
    });

    it("never dead-letters a message whose handler failed because a service was down: it waits for it", async () => {
      const { harness, bus, subscribe, waitFor } = await setup();
      const topic = await harness.createTopic("outage");
      const groupId = harness.groupId("outage");
      const handled: string[] = [];
      let outageAttempts = 0;
      for (const value of ["o0", "o1"])
        bus.publish(topic, "account-1", text(value), { "event-type": "test.v1" });
      // A PostgreSQL restart as the handler sees it: the connection refused, then the server shutting
      // down (57P01), then pg's lost connection, for more attempts than maxAttempts allows a poison one.
      const outage = [
        Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
        Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
        new Error("Connection terminated unexpectedly"),
      ];
      await subscribe({
        topic,
        groupId,
        maxAttempts: 2,
        handler: async (message) => {
          if (read(message) === "o0" && outageAttempts < 6) throw outage[outageAttempts++ % outage.length];
          handled.push(read(message));
        },
      });
      const deadLetters: ConsumedMessage[] = [];
      await subscribe({
        topic: deadLetterTopic(topic, groupId),
        groupId: harness.groupId("outage-dlq"),
        handler: async (message) => {
          deadLetters.push(message);
        },
      });
      await waitFor(() => handled.length >= 2, "both messages applied once the service is back");
      expect(handled).toEqual(["o0", "o1"]);
      expect(outageAttempts).toBe(6);
      // Given the dead-letter topic time to receive anything it would have got.
      await sleep(300);
      expect(deadLetters).toHaveLength(0);
    });

    it("flush() resolves once everything published is delivered", async () => {
      const { harness, bus, subscribe, waitFor } = await setup();
      const topic = await harness.createTopic("flush");
      const count = 200;
      for (let index = 0; index < count; index++)
        bus.publish(topic, `account-${index % 5}`, text(`m${index}`));
      await bus.flush();
      expect(bus.backlog()).toBe(0);
      await bus.flush();

      // Delivered means durable: a group that starts only now still finds all of them.
      const received = new Set<string>();
      await subscribe({
        topic,
        groupId: harness.groupId("flush"),
        handler: async (message) => {
          received.add(read(message));
        },
      });
      await waitFor(() => received.size >= count, `${count} messages`);
      expect(received.size).toBe(count);
    });

    it("publish() returns at once and never runs handlers on the caller's stack", async () => {
      const { harness, bus, subscribe, waitFor } = await setup();
      const topic = await harness.createTopic("async");
      let handledSynchronously = false;
      let handled = 0;
      let publishing = false;
      await subscribe({
        topic,
        groupId: harness.groupId("async"),
        handler: async () => {
          if (publishing) handledSynchronously = true;
          handled++;
        },
      });
      publishing = true;
      bus.publish(topic, "account-1", text("x"));
      publishing = false;
      await waitFor(() => handled >= 1, "the message");
      expect(handledSynchronously).toBe(false);
    });
  });
}
