import { expect, it } from "vitest";
import type { ConsumedMessage } from "./bus.js";
import { deadLetterTopic } from "./bus.js";
import type { ContractContext } from "./contract-context.js";
import { read, sleep, text } from "./contract-util.js";

/** The batch handler's part of the EventBus contract; runs inside describeEventBusContract. */
export function describeBatchHandlerContract(setup: () => Promise<ContractContext>): void {
  it("batch handler: bounded batches, every message at least once, per-key order kept", async () => {
    const { harness, bus, subscribe, waitFor } = await setup();
    const topic = await harness.createTopic("batch-order", 3);
    const keys = ["acct-a", "acct-b", "acct-c", "acct-d"];
    const perKey = 100;
    for (let index = 0; index < perKey; index++)
      for (const key of keys) bus.publish(topic, key, text(String(index)));
    await bus.flush();
    const sizes: number[] = [];
    const seen = new Map<string, number[]>(keys.map((key) => [key, []]));
    await subscribe({
      topic,
      groupId: harness.groupId("batch-order"),
      maxBatchSize: 50,
      batchHandler: async (messages) => {
        sizes.push(messages.length);
        for (const message of messages) seen.get(message.key)?.push(Number(read(message)));
      },
    });
    const total = () => sizes.reduce((sum, size) => sum + size, 0);
    await waitFor(() => total() >= keys.length * perKey, `${keys.length * perKey} messages`);
    const expected = Array.from({ length: perKey }, (_, index) => index);
    for (const key of keys) expect(seen.get(key), key).toEqual(expected);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(50);
    // Published before the subscription, so they were waiting together: delivered in batches.
    expect(Math.max(...sizes)).toBeGreaterThan(1);
  });

  it("batch handler: a batch that never succeeded is not committed and is redelivered", async () => {
    const { harness, bus, subscribe, waitFor, onCleanup } = await setup();
    const topic = await harness.createTopic("batch-uncommitted");
    const groupId = harness.groupId("batch-uncommitted");
    for (const value of ["b0", "b1", "b2"]) bus.publish(topic, "account-1", text(value));
    await bus.flush();
    let calls = 0;
    const failing = await bus.subscribe({
      topic,
      groupId,
      maxAttempts: 1000,
      batchHandler: async () => {
        calls++;
        throw new Error("database unavailable");
      },
    });
    onCleanup(() => failing.stop());
    await waitFor(() => calls >= 3, "three failed calls");
    await failing.stop();

    const received: string[] = [];
    await subscribe({
      topic,
      groupId,
      batchHandler: async (messages) => {
        received.push(...messages.map(read));
      },
    });
    await waitFor(() => received.includes("b2"), "all messages again after the restart");
    expect(received).toEqual(["b0", "b1", "b2"]);
  });

  it("batch handler: commits after the handler resolved; a stopped group resumes after it", async () => {
    const { harness, bus, subscribe, waitFor, onCleanup } = await setup();
    const topic = await harness.createTopic("batch-commit");
    const groupId = harness.groupId("batch-commit");
    for (let index = 0; index < 5; index++) bus.publish(topic, "account-1", text(`m${index}`));
    await bus.flush();
    const firstRun: string[] = [];
    let started = false;
    const first = await bus.subscribe({
      topic,
      groupId,
      batchHandler: async (messages) => {
        started = true;
        // Slow, so the stop below arrives while the batch is in flight.
        await sleep(300);
        firstRun.push(...messages.map(read));
      },
    });
    onCleanup(() => first.stop());
    await waitFor(() => started, "the first batch to start");
    await first.stop();
    expect(firstRun.length).toBeGreaterThan(0);

    bus.publish(topic, "account-1", text("next"));
    await bus.flush();
    const secondRun: string[] = [];
    await subscribe({
      topic,
      groupId,
      batchHandler: async (messages) => {
        secondRun.push(...messages.map(read));
      },
    });
    await waitFor(() => secondRun.includes("next"), "the next message");
    // Everything the first run's handler finished was committed: none of it comes again.
    expect(secondRun.filter((value) => firstRun.includes(value))).toEqual([]);
    expect([...firstRun, ...secondRun]).toEqual(["m0", "m1", "m2", "m3", "m4", "next"]);
  });

  it("batch handler: a failed batch is retried message by message; only the poison one is dead-lettered", async () => {
    const { harness, bus, subscribe, waitFor } = await setup();
    const topic = await harness.createTopic("batch-poison");
    const groupId = harness.groupId("batch-poison");
    for (const value of ["p0", "p1", "poison", "p3", "p4"])
      bus.publish(topic, "account-1", text(value), { "event-type": "test.v1" });
    await bus.flush();
    const handled: string[] = [];
    let poisonAlone = 0;
    await subscribe({
      topic,
      groupId,
      maxAttempts: 3,
      batchHandler: async (messages) => {
        const values = messages.map(read);
        if (values.includes("poison")) {
          if (values.length === 1) poisonAlone++;
          throw new Error("cannot handle this one");
        }
        handled.push(...values);
      },
    });
    const deadLetters: ConsumedMessage[] = [];
    await subscribe({
      topic: deadLetterTopic(topic, groupId),
      groupId: harness.groupId("batch-poison-dlq"),
      handler: async (message) => {
        deadLetters.push(message);
      },
    });
    await waitFor(() => handled.length >= 4 && deadLetters.length >= 1, "the others and the dead letter");
    expect(handled).toEqual(["p0", "p1", "p3", "p4"]);
    // maxAttempts counts the attempts of the message on its own.
    expect(poisonAlone).toBe(3);
    expect(deadLetters).toHaveLength(1);
    expect(read(deadLetters[0] as ConsumedMessage)).toBe("poison");
    expect(deadLetters[0]).toMatchObject({
      key: "account-1",
      headers: { "event-type": "test.v1", "x-error": "cannot handle this one" },
    });
  });
}
