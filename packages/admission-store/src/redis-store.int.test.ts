import { describeWith, serviceUrl, uniqueName } from "@gw/testing";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeAdmissionStoreContract } from "./admission-store.contract.js";
import type { AccountLedgerEntry } from "./admission-store.js";
import { connectRedis } from "./redis/connect.js";
import { RedisAdmissionStore } from "./redis/redis-store.js";

type Counted = "evalsha" | "eval" | "pipeline";

/** The client with a count of its script calls and pipelines: each is one round trip. */
function counting(redis: Redis): { client: Redis; calls: Record<Counted, number> } {
  const calls: Record<Counted, number> = { evalsha: 0, eval: 0, pipeline: 0 };
  const client = new Proxy(redis, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        if (property === "evalsha" || property === "eval" || property === "pipeline") calls[property]++;
        return method.apply(target, args);
      };
    },
  });
  return { client, calls };
}

/** `perAccount` debits of 1 pico to each of `accounts` fresh accounts, interleaved. */
function debits(accounts: string[], perAccount: number): AccountLedgerEntry[] {
  return Array.from({ length: perAccount }, (_, round) =>
    accounts.map((accountId) => ({ accountId, entry: { entryId: BigInt(2 + round), amountPico: -1n } })),
  ).flat();
}

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

    it("expires every key it writes: the view's with the view, rate counters with their window, cold entries soon", async () => {
      const prefix = uniquePrefix();
      const [viewTtlMs, coldEntryTtlMs] = [60_000, 20_000];
      const store = new RedisAdmissionStore(redis, { keyPrefix: prefix, viewTtlMs, coldEntryTtlMs });
      const now = Date.now();
      const window = { name: "free:minute", windowStartMs: now, windowEndMs: now + 30_000 };
      // Every key of a warm view: a purchase, a keyed hold, a pending debit, a rate counter and a
      // rate counter raised to the ledger's count on load.
      await store.load(
        "acct-ttls",
        { balancePico: 100n, seq: 1n, rateFloors: [{ ...window, count: 1 }] },
        now,
      );
      await store.loadKey("acct-ttls", { keyHash: "k", windowStartMs: now, spentPico: 0n, seq: 1n });
      const keyLimit = { keyHash: "k", limitPico: 1_000n, windowStartMs: now };
      await store.admit({
        accountId: "acct-ttls",
        holdId: "h",
        amountPico: 5n,
        ttlMs: 30_000,
        now,
        keyLimit,
      });
      await store.settle("acct-ttls", "h", 3n);
      const rates = [{ ...window, name: "free:day", limit: 5 }];
      await store.admit({ accountId: "acct-ttls", holdId: "r", amountPico: 0n, ttlMs: 30_000, now, rates });
      await store.applyLedgerEntry("acct-ttls", { entryId: 2n, amountPico: 7n, isPurchase: true });
      // An unloaded account: the entry (and its purchase) is remembered for coldEntryTtlMs only.
      await store.applyLedgerEntry("acct-ttls-cold", { entryId: 3n, amountPico: 7n, isPurchase: true });
      const pttl = async (pattern: string): Promise<Record<string, number>> => {
        const keys = await redis.keys(`${prefix}${pattern}`);
        return Object.fromEntries(
          await Promise.all(
            keys.map(async (key) => [key.slice(prefix.length), await redis.pttl(key)] as const),
          ),
        );
      };
      const warm = await pttl("{acct:acct-ttls}:*");
      const bound = (key: string) => (key.includes(":rate:") ? 30_000 + 1_000 : viewTtlMs);
      expect(Object.keys(warm)).toHaveLength(10);
      for (const [key, ttl] of Object.entries(warm))
        expect([key, ttl > 0 && ttl <= bound(key)]).toEqual([key, true]);
      const cold = await pttl("{acct:acct-ttls-cold}:*");
      expect(Object.keys(cold).sort()).toEqual([
        "{acct:acct-ttls-cold}:applied",
        "{acct:acct-ttls-cold}:purchases",
      ]);
      for (const [key, ttl] of Object.entries(cold))
        expect([key, ttl > 0 && ttl <= coldEntryTtlMs]).toEqual([key, true]);
    });

    it("refreshes the TTL of a view a batch of entries applied to", async () => {
      const prefix = uniquePrefix();
      const store = new RedisAdmissionStore(redis, { keyPrefix: prefix, viewTtlMs: 60_000 });
      await store.load("acct-batch-ttl", { balancePico: 100n, seq: 1n }, Date.now());
      const [view] = await redis.keys(`${prefix}{acct:acct-batch-ttl}:view`);
      await redis.pexpire(view as string, 5_000);
      await store.applyLedgerEntries([
        { accountId: "acct-batch-ttl", entry: { entryId: 2n, amountPico: -1n } },
      ]);
      expect(await redis.pttl(view as string)).toBeGreaterThan(5_000);
    });

    it("reloads its scripts after the server's script cache is flushed", async () => {
      const store = new RedisAdmissionStore(redis, { keyPrefix: uniquePrefix() });
      await store.load("acct-flush", { balancePico: 10n, seq: 1n }, Date.now());
      await redis.script("FLUSH");
      expect((await store.view("acct-flush"))?.balancePico).toBe(10n);
    });

    it("applies a batch of entries over many accounts in one script call", async () => {
      const { client, calls } = counting(redis);
      const store = new RedisAdmissionStore(client, { keyPrefix: uniquePrefix() });
      const accounts = Array.from({ length: 8 }, (_, index) => `acct-one-call-${index}`);
      for (const id of accounts) await store.load(id, { balancePico: 100n, seq: 1n }, Date.now());
      // Once the server has the script cached (the first call may need a second, EVAL).
      await store.applyLedgerEntries([{ accountId: "acct-warm", entry: { entryId: 1n, amountPico: 1n } }]);
      Object.assign(calls, { evalsha: 0, eval: 0, pipeline: 0 });
      const results = await store.applyLedgerEntries(debits(accounts, 5));
      expect(results.filter((result) => result === "applied")).toHaveLength(40);
      expect(calls).toEqual({ evalsha: 1, eval: 0, pipeline: 0 });
      expect((await store.view("acct-one-call-7"))?.balancePico).toBe(95n);
    });

    it("sends a batch too large for one script as one pipeline, also after a script cache flush", async () => {
      const { client, calls } = counting(redis);
      const store = new RedisAdmissionStore(client, { keyPrefix: uniquePrefix() });
      const accounts = Array.from({ length: 60 }, (_, index) => `acct-pipelined-${index}`);
      for (const id of accounts) await store.load(id, { balancePico: 100n, seq: 1n }, Date.now());
      await redis.script("FLUSH");
      calls.evalsha = 0;
      calls.eval = 0;
      const results = await store.applyLedgerEntries(debits(accounts, 10));
      expect(results.filter((result) => result === "applied")).toHaveLength(600);
      expect(calls.pipeline).toBe(1);
      expect(calls.evalsha).toBe(0);
      for (const id of accounts) expect((await store.view(id))?.balancePico).toBe(90n);
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
