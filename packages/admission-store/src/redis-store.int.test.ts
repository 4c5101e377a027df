import { describeWith, serviceUrl, uniqueName } from "@gw/testing";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeAdmissionStoreContract } from "./admission-store.contract.js";
import { connectRedis } from "./redis/connect.js";
import { RedisAdmissionStore } from "./redis/redis-store.js";

describeWith(["redis"], "RedisAdmissionStore on a real Redis", () => {
  let redis: Redis;
  // One root per run; each store gets its own prefix under it, so tests never see each other's keys.
  const root = `${uniqueName("test-hotstore")}:`;
  const uniquePrefix = (): string => `${root}${uniqueName("store")}:`;

  beforeAll(async () => {
    redis = await connectRedis(serviceUrl("redis"));
  });

  afterAll(async () => {
    const keys = await redis.keys(`${root}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  describeAdmissionStoreContract(
    "RedisAdmissionStore",
    async (options) => new RedisAdmissionStore(redis, { ...options, keyPrefix: uniquePrefix() }),
  );

  describe("RedisAdmissionStore", () => {
    it("keeps all of an account's keys in one cluster hash slot under the prefix", async () => {
      const prefix = uniquePrefix();
      const store = new RedisAdmissionStore(redis, { keyPrefix: prefix });
      await store.load("acct-slot", { balancePico: 10n, seq: 1n }, Date.now());
      await store.admit({
        accountId: "acct-slot",
        holdId: "h",
        amountPico: 1n,
        ttlMs: 1_000,
        now: Date.now(),
      });
      const keys = await redis.keys(`${prefix}*`);
      expect(keys.length).toBeGreaterThanOrEqual(3);
      expect(keys.every((key) => key.startsWith(`${prefix}{acct:acct-slot}:`))).toBe(true);
    });

    it("sets a ttl on every key of the view", async () => {
      const prefix = uniquePrefix();
      const store = new RedisAdmissionStore(redis, { keyPrefix: prefix, viewTtlMs: 60_000 });
      await store.load("acct-ttl", { balancePico: 10n, seq: 1n }, Date.now());
      await store.admit({
        accountId: "acct-ttl",
        holdId: "h",
        amountPico: 1n,
        // Long enough not to expire between the admit and the reads below on a loaded machine.
        ttlMs: 30_000,
        now: Date.now(),
      });
      const keys = await redis.keys(`${prefix}*`);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        const ttl = await redis.pttl(key);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(60_000);
      }
    });

    it("reloads its scripts after the server's script cache is flushed", async () => {
      const store = new RedisAdmissionStore(redis, { keyPrefix: uniquePrefix() });
      await store.load("acct-flush", { balancePico: 10n, seq: 1n }, Date.now());
      await redis.script("FLUSH");
      expect((await store.view("acct-flush"))?.balancePico).toBe(10n);
    });

    it("fails fast when its connection is gone", async () => {
      const down = await connectRedis(serviceUrl("redis"));
      const store = new RedisAdmissionStore(down, { keyPrefix: uniquePrefix() });
      down.disconnect();
      const started = Date.now();
      await expect(
        store.admit({ accountId: "acct-down", holdId: "h", amountPico: 1n, ttlMs: 1_000, now: started }),
      ).rejects.toThrow();
      // Rejected rather than queued until a reconnect (which never comes): well inside the 5 s bound.
      expect(Date.now() - started).toBeLessThan(5_000);
    });
  });
});
