import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { SubscribeOptions } from "./bus.js";
import { describeEventBusContract } from "./contract.js";
import { InProcessEventBus } from "./in-process-bus.js";

describeEventBusContract("InProcessEventBus", () => ({
  createBus: async () => new InProcessEventBus(),
  createTopic: async (prefix) => `${prefix}.${randomUUID()}`,
  groupId: (prefix) => `${prefix}-${randomUUID()}`,
  timeoutMs: 5000,
}));

describe("InProcessEventBus", () => {
  it("refuses a second running member of the same group", async () => {
    const bus = new InProcessEventBus();
    const options = { topic: "t", groupId: "g", handler: async () => {} };
    const subscription = await bus.subscribe(options);
    await expect(bus.subscribe(options)).rejects.toThrow(/already consumes/);
    await subscription.stop();
    await bus.close();
  });

  it("refuses a subscription with both a handler and a batch handler, or with neither", async () => {
    const bus = new InProcessEventBus();
    const handler = async () => {};
    const both = { topic: "t", groupId: "g", handler, batchHandler: handler } as unknown as SubscribeOptions;
    const neither = { topic: "t", groupId: "g" } as unknown as SubscribeOptions;
    await expect(bus.subscribe(both)).rejects.toThrow(/not both/);
    await expect(bus.subscribe(neither)).rejects.toThrow(/needs a handler/);
    await bus.close();
  });

  it("keeps what was published when the caller reuses its buffer", async () => {
    const bus = new InProcessEventBus();
    const buffer = new TextEncoder().encode("original");
    const received: string[] = [];
    bus.publish("t", "k", buffer);
    buffer.fill(0);
    const subscription = await bus.subscribe({
      topic: "t",
      groupId: "g",
      handler: async (message) => {
        received.push(new TextDecoder().decode(message.value));
      },
    });
    await expect.poll(() => received.length).toBe(1);
    expect(received).toEqual(["original"]);
    await subscription.stop();
    await bus.close();
  });

  it("rejects publishing after close", async () => {
    const bus = new InProcessEventBus();
    await bus.close();
    expect(() => bus.publish("t", "k", new Uint8Array())).toThrow(/closed/);
  });

  it("drops what every group has consumed, and keeps what a stopped group has not", async () => {
    const bus = new InProcessEventBus();
    const seen = { fast: 0, slow: 0 };
    const fast = await bus.subscribe({ topic: "t", groupId: "fast", handler: async () => void seen.fast++ });
    const slow = await bus.subscribe({ topic: "t", groupId: "slow", handler: async () => void seen.slow++ });
    await slow.stop();
    for (let i = 0; i < 5_000; i++) bus.publish("t", "k", new Uint8Array([i % 256]));
    await expect.poll(() => seen.fast).toBe(5_000);
    // The stopped group resumes from its committed offset: nothing it has not seen may be dropped.
    expect(bus.retained("t")).toBe(5_000);
    const resumed = await bus.subscribe({
      topic: "t",
      groupId: "slow",
      handler: async () => void seen.slow++,
    });
    await expect.poll(() => seen.slow).toBe(5_000);
    await expect.poll(() => bus.retained("t")).toBeLessThan(1_024);
    await fast.stop();
    await resumed.stop();
    await bus.close();
  });

  it("keeps only the newest 10,000 messages of a topic nobody consumes", async () => {
    const bus = new InProcessEventBus();
    for (let i = 0; i < 25_000; i++) bus.publish("unread", "k", new Uint8Array([1]));
    const kept = bus.retained("unread");
    expect(kept).toBeGreaterThanOrEqual(10_000);
    expect(kept).toBeLessThan(10_000 + 1_024);
    const received: string[] = [];
    const subscription = await bus.subscribe({
      topic: "unread",
      groupId: "late",
      handler: async (message) => void received.push(message.offset),
    });
    // A group from the beginning starts at the oldest retained message, with its original offset.
    await expect.poll(() => received.length).toBe(kept);
    expect(received[0]).toBe(String(25_000 - kept));
    expect(received.at(-1)).toBe("24999");
    await subscription.stop();
    await bus.close();
  });
});
