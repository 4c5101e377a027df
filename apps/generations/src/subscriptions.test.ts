import { createLogger } from "@gw/logger";
import type { Stoppable } from "@gw/service";
import { describe, expect, it } from "vitest";
import { subscribeWithRetry } from "./subscriptions.js";

const logger = createLogger("subscriptions-test", "silent");
const fast = { logger, firstDelayMs: 5, maxDelayMs: 20 };

/** A consumer that records its stop. */
function consumer(name: string, stopped: string[]): Stoppable {
  return { stop: async () => void stopped.push(name) };
}

describe("subscribeWithRetry (issue 33: the app exited when the first subscribe failed)", () => {
  it("retries a failing subscribe, stopping each failed attempt's consumers, until it succeeds", async () => {
    const stopped: string[] = [];
    let attempts = 0;
    const consumers = await subscribeWithRetry(async (held) => {
      attempts += 1;
      held.push(consumer(`usage#${attempts}`, stopped));
      if (attempts < 3) throw new Error("This server does not host this topic-partition");
      held.push(consumer(`key-changes#${attempts}`, stopped));
    }, fast);
    expect(consumers.check()).toMatchObject({ ok: false, error: expect.stringContaining("topic-partition") });
    await expect.poll(() => consumers.check().ok).toBe(true);
    expect(attempts).toBe(3);
    expect(stopped).toEqual(["usage#1", "usage#2"]);
    await consumers.stop();
    expect(stopped).toEqual(["usage#1", "usage#2", "usage#3", "key-changes#3"]);
  });

  it("is ready at once when the first attempt succeeds, and a stop while retrying ends the retries", async () => {
    const ready = await subscribeWithRetry(async () => {}, fast);
    expect(ready.check()).toEqual({ ok: true });
    let attempts = 0;
    const failing = await subscribeWithRetry(async () => {
      attempts += 1;
      throw new Error("coordinator not available");
    }, fast);
    await expect.poll(() => attempts).toBeGreaterThan(1);
    await failing.stop();
    const after = attempts;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(attempts).toBe(after);
    expect(failing.check().ok).toBe(false);
  });
});
