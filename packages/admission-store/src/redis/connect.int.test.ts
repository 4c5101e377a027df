import { describeWith, serviceUrl } from "@gw/testing";
import { afterEach, expect, it, vi } from "vitest";
import { connectRedis } from "./connect.js";

describeWith(["redis"], "connectRedis", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("fails a command at once while reconnecting instead of queueing it", async () => {
    const redis = await connectRedis(serviceUrl("redis"));
    try {
      expect(await redis.ping()).toBe("PONG");
      redis.disconnect(true); // drop the connection; ioredis reconnects
      await expect(redis.ping()).rejects.toThrow(/enableOfflineQueue/);
    } finally {
      redis.disconnect();
    }
  });

  it("keeps connection errors quiet (they surface on the commands)", async () => {
    const printed = vi.spyOn(console, "error").mockImplementation(() => {});
    // Nothing listens on port 1: the connection is refused, and not retried.
    await expect(connectRedis("redis://127.0.0.1:1", { retryStrategy: () => null })).rejects.toThrow();
    expect(printed).not.toHaveBeenCalled();
  });
});
