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
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toEqual(["original"]);
    await subscription.stop();
    await bus.close();
  });

  it("rejects publishing after close", async () => {
    const bus = new InProcessEventBus();
    await bus.close();
    expect(() => bus.publish("t", "k", new Uint8Array())).toThrow(/closed/);
  });
});
