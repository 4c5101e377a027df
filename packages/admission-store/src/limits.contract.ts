import { describe, expect, it } from "vitest";
import type { AdmissionStore, AdmissionStoreOptions, AdmitRequest, RateCheck } from "./admission-store.js";

const T0 = 1_800_000_000_000;
const TTL = 60_000;
const KEY = "a".repeat(64);
const DAY = 86_400_000;

let counter = 0;
const account = (): string => `acct-limits-${process.pid}-${++counter}`;

function keyed(accountId: string, holdId: string, amountPico: bigint, limitPico: bigint, now = T0) {
  return {
    accountId,
    holdId,
    amountPico,
    ttlMs: TTL,
    now,
    keyLimit: { keyHash: KEY, limitPico, windowStartMs: T0 - 1_000 },
  } satisfies AdmitRequest;
}

const minute = (now: number, limit: number): RateCheck => {
  const start = now - (now % 60_000);
  return { name: "free:minute", limit, windowStartMs: start, windowEndMs: start + 60_000 };
};

function rated(accountId: string, holdId: string, rates: RateCheck[], now = T0): AdmitRequest {
  return { accountId, holdId, amountPico: 0n, ttlMs: TTL, now, rates };
}

/** Key spend limits and request-count windows: part of the AdmissionStore contract. */
export function describeLimitsContract(
  name: string,
  make: (options?: AdmissionStoreOptions) => Promise<AdmissionStore>,
): void {
  const warm = async (balancePico = 1_000_000n, purchasedPico = 0n) => {
    const store = await make();
    const id = account();
    await store.load(id, { balancePico, seq: 10n, purchasedPico }, T0);
    return { store, id };
  };

  describe(`${name}: key spend limits`, () => {
    it("answers cold_key until the key's window is loaded, then refuses past the limit", async () => {
      const { store, id } = await warm();
      expect(await store.admit(keyed(id, "h1", 30n, 100n))).toEqual({ status: "cold_key" });
      const snapshot = { keyHash: KEY, windowStartMs: T0 - 1_000, spentPico: 40n, seq: 10n };
      expect(await store.loadKey(id, snapshot)).toBe("loaded");
      expect(await store.loadKey(id, snapshot)).toBe("ignored");
      expect((await store.admit(keyed(id, "h1", 30n, 100n))).status).toBe("admitted");
      expect((await store.admit(keyed(id, "h2", 30n, 100n))).status).toBe("admitted");
      expect(await store.admit(keyed(id, "h3", 1n, 100n))).toEqual({
        status: "refused",
        reason: "quota_exceeded",
        limitSource: "key",
      });
      expect((await store.view(id, T0))?.keyUsed).toEqual({ [`${KEY}@${T0 - 1_000}`]: 100n });
    });

    it("refuses a key load older than the view as stale", async () => {
      const { store, id } = await warm();
      const stale = { keyHash: KEY, windowStartMs: 0, spentPico: 0n, seq: 9n };
      expect(await store.loadKey(id, stale)).toBe("stale");
      await store.applyLedgerEntry(id, { entryId: 11n, amountPico: 5n });
      expect(await store.loadKey(id, { ...stale, seq: 10n })).toBe("stale");
      expect(await store.loadKey(id, { ...stale, seq: 11n })).toBe("loaded");
    });

    it("settle, apply and release move the key's spend; the result equals a fresh ledger read", async () => {
      const { store, id } = await warm();
      await store.loadKey(id, { keyHash: KEY, windowStartMs: T0 - 1_000, spentPico: 0n, seq: 10n });
      await store.admit(keyed(id, "g1", 50n, 100n));
      await store.admit(keyed(id, "g2", 50n, 100n));
      await store.settle(id, "g1", 20n);
      await store.release(id, "g2");
      const window = `${KEY}@${T0 - 1_000}`;
      expect((await store.view(id, T0))?.keyUsed[window]).toBe(20n);
      await store.applyLedgerEntry(id, {
        entryId: 11n,
        amountPico: -20n,
        pendingRef: "g1",
        keyHash: KEY,
        createdAtMs: T0,
      });
      expect((await store.view(id, T0))?.keyUsed[window]).toBe(20n);
      // Another edge's request of the same key, reconciled from its usage event only.
      await store.applyLedgerEntry(id, { entryId: 12n, amountPico: -7n, keyHash: KEY, createdAtMs: T0 });
      // Spend from before the window does not count in it.
      await store.applyLedgerEntry(id, {
        entryId: 13n,
        amountPico: -9n,
        keyHash: KEY,
        createdAtMs: T0 - DAY,
      });
      expect((await store.view(id, T0))?.keyUsed[window]).toBe(27n);
      expect((await store.admit(keyed(id, "g3", 73n, 100n))).status).toBe("admitted");
      expect((await store.admit(keyed(id, "g4", 1n, 100n))).status).toBe("refused");
    });

    it("counts spend created at the window's first millisecond, and not an entry the key's snapshot covers", async () => {
      const { store, id } = await warm();
      const start = T0 - 1_000;
      // The key's snapshot was read at ledger seq 12: it holds entries 11 and 12 (spent 30), which the
      // view (seq 10) has not applied yet. When they arrive they count in the balance, not the key again.
      expect(await store.loadKey(id, { keyHash: KEY, windowStartMs: start, spentPico: 30n, seq: 12n })).toBe(
        "loaded",
      );
      const spend = (entryId: bigint, amountPico: bigint, createdAtMs: number) =>
        store.applyLedgerEntry(id, { entryId, amountPico, keyHash: KEY, createdAtMs });
      expect(await spend(11n, -10n, T0)).toBe("applied");
      expect(await spend(12n, -20n, T0)).toBe("applied");
      expect(await spend(13n, -4n, start)).toBe("applied");
      expect(await spend(14n, -8n, start - 1)).toBe("applied");
      const view = await store.view(id, T0);
      expect(view?.balancePico).toBe(1_000_000n - 42n);
      expect(view?.keyUsed).toEqual({ [`${KEY}@${start}`]: 34n });
    });

    it("a rebase drops key windows; reloading counts the key's holds still in flight", async () => {
      const { store, id } = await warm();
      const snapshot = { keyHash: KEY, windowStartMs: T0 - 1_000, spentPico: 10n, seq: 10n };
      await store.loadKey(id, snapshot);
      await store.admit(keyed(id, "in-flight", 60n, 100n));
      await store.load(id, { balancePico: 1_000_000n, seq: 12n }, T0);
      expect(await store.admit(keyed(id, "next", 1n, 100n))).toEqual({ status: "cold_key" });
      await store.loadKey(id, { ...snapshot, seq: 12n });
      expect((await store.admit(keyed(id, "next", 30n, 100n))).status).toBe("admitted");
      expect((await store.admit(keyed(id, "over", 1n, 100n))).status).toBe("refused");
    });

    it("counts BYOK upstream costs only in a window of a key that includes them", async () => {
      const { store, id } = await warm();
      const start = T0 - 1_000;
      await store.loadKey(id, { keyHash: KEY, windowStartMs: start, spentPico: 0n, seq: 10n });
      await store.loadKey(id, {
        keyHash: KEY,
        windowStartMs: start,
        spentPico: 5n,
        seq: 10n,
        includeByok: true,
      });
      const byokEntry = { entryId: 11n, amountPico: -2n, keyHash: KEY, createdAtMs: T0, byokPico: 40n };
      await store.applyLedgerEntry(id, byokEntry);
      expect((await store.view(id, T0))?.keyUsed).toEqual({
        [`${KEY}@${start}`]: 2n,
        [`${KEY}@${start}b`]: 47n,
      });
      const withByok = {
        ...keyed(id, "b1", 54n, 100n),
        keyLimit: { keyHash: KEY, limitPico: 100n, windowStartMs: start, includeByok: true },
      };
      expect((await store.admit(withByok)).status).toBe("refused");
      expect((await store.admit({ ...withByok, amountPico: 53n })).status).toBe("admitted");
      expect((await store.admit(keyed(id, "plain", 98n, 100n))).status).toBe("admitted");
    });

    it("admits exactly as many of 200 concurrent requests as the key's limit covers", async () => {
      const { store, id } = await warm(10n ** 15n);
      await store.loadKey(id, { keyHash: KEY, windowStartMs: T0 - 1_000, spentPico: 0n, seq: 10n });
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, index) => store.admit(keyed(id, `r${index}`, 7n, 350n))),
      );
      expect(results.filter((result) => result.status === "admitted")).toHaveLength(50);
    });
  });

  describe(`${name}: rate windows`, () => {
    it("refuses the request past the limit until the next window, with the reset time", async () => {
      const { store, id } = await warm(0n);
      for (const hold of ["a", "b", "c"]) {
        expect((await store.admit(rated(id, hold, [minute(T0, 3)]))).status).toBe("admitted");
      }
      expect(await store.admit(rated(id, "d", [minute(T0, 3)]))).toEqual({
        status: "rate_limited",
        limitSource: "free:minute",
        limit: 3,
        resetAtMs: minute(T0, 3).windowEndMs,
      });
      const next = minute(T0, 3).windowEndMs;
      expect((await store.admit(rated(id, "d", [minute(next, 3)], next))).status).toBe("admitted");
    });

    it("counts a request only when every check passes, and not again on a retried admit", async () => {
      const { store, id } = await warm(5n);
      const day: RateCheck = { name: "free:day", limit: 2, windowStartMs: T0, windowEndMs: T0 + DAY };
      const both = [minute(T0, 10), day];
      expect((await store.admit({ ...rated(id, "paid", both), amountPico: 6n })).status).toBe("refused");
      expect((await store.admit(rated(id, "one", both))).status).toBe("admitted");
      expect((await store.admit(rated(id, "one", both))).status).toBe("admitted");
      expect((await store.admit(rated(id, "two", both))).status).toBe("admitted");
      const third = await store.admit(rated(id, "three", both));
      expect(third).toMatchObject({ status: "rate_limited", limitSource: "free:day", limit: 2 });
    });

    it("raises a limit once purchases reach the threshold, a purchase applied live included", async () => {
      const { store, id } = await warm(0n, 4n);
      const day: RateCheck = {
        name: "free:day",
        limit: 1,
        upgrade: { minPurchasedPico: 5n, limit: 2 },
        windowStartMs: T0,
        windowEndMs: T0 + DAY,
      };
      expect((await store.admit(rated(id, "one", [day]))).status).toBe("admitted");
      expect((await store.admit(rated(id, "two", [day]))).status).toBe("rate_limited");
      await store.applyLedgerEntry(id, { entryId: 11n, amountPico: 1n, isPurchase: true });
      expect((await store.view(id, T0))?.purchasedPico).toBe(5n);
      expect((await store.admit(rated(id, "two", [day]))).status).toBe("admitted");
      expect((await store.admit(rated(id, "three", [day]))).status).toBe("rate_limited");
    });

    it("keeps counting across a dropped view (the ledger cannot rebuild request counts)", async () => {
      const { store, id } = await warm(0n);
      expect((await store.admit(rated(id, "one", [minute(T0, 1)]))).status).toBe("admitted");
      await store.invalidate(id);
      await store.load(id, { balancePico: 0n, seq: 10n }, T0);
      expect((await store.admit(rated(id, "two", [minute(T0, 1)]))).status).toBe("rate_limited");
    });

    it("raises a counter to the ledger's count on load, never lowers it", async () => {
      const { store, id } = await warm(0n);
      const window = minute(T0, 5);
      expect((await store.admit(rated(id, "one", [window]))).status).toBe("admitted");
      const floor = {
        name: window.name,
        windowStartMs: window.windowStartMs,
        windowEndMs: window.windowEndMs,
      };
      // A lost Redis: the view and the counters are gone; the ledger knows 3 requests of this window.
      await store.load(id, { balancePico: 0n, seq: 11n, rateFloors: [{ ...floor, count: 3 }] }, T0);
      expect((await store.admit(rated(id, "two", [window]))).status).toBe("admitted");
      expect((await store.admit(rated(id, "three", [window]))).status).toBe("admitted");
      expect((await store.admit(rated(id, "four", [window]))).status).toBe("rate_limited");
      await store.load(id, { balancePico: 0n, seq: 12n, rateFloors: [{ ...floor, count: 1 }] }, T0);
      expect((await store.admit(rated(id, "four", [window]))).status).toBe("rate_limited");
    });

    it("counts a take of several requests at once, only when all of them fit (a lease's slice)", async () => {
      const { store, id } = await warm(0n);
      const slice = (hold: string, take: number) => rated(id, hold, [{ ...minute(T0, 10), take }]);
      expect((await store.admit(slice("lease-1", 4))).status).toBe("admitted");
      expect((await store.admit(slice("lease-2", 4))).status).toBe("admitted");
      // 8 of 10 counted: a slice of 3 does not fit and counts nothing, so 2 single requests still do.
      expect(await store.admit(slice("lease-3", 3))).toEqual({
        status: "rate_limited",
        limitSource: "free:minute",
        limit: 10,
        resetAtMs: T0 + 60_000,
      });
      expect((await store.admit(rated(id, "one", [minute(T0, 10)]))).status).toBe("admitted");
      expect((await store.admit(slice("lease-4", 1))).status).toBe("admitted");
      expect((await store.admit(rated(id, "three", [minute(T0, 10)]))).status).toBe("rate_limited");
      // A retried admit of a slice already counted is not counted again.
      expect((await store.admit(slice("lease-1", 4))).status).toBe("admitted");
    });

    it("a take that does not fit one window counts in none of the others", async () => {
      const { store, id } = await warm(0n);
      const wide: RateCheck = {
        name: "paid:minute",
        limit: 100,
        windowStartMs: T0,
        windowEndMs: T0 + 60_000,
      };
      const narrow = { ...minute(T0, 2), take: 3 };
      expect((await store.admit(rated(id, "lease", [{ ...wide, take: 3 }, narrow]))).status).toBe(
        "rate_limited",
      );
      const fill = await store.admit(rated(id, "fill", [{ ...wide, take: 100 }]));
      expect(fill.status).toBe("admitted");
    });

    it("admits exactly the limit of 100 concurrent requests in one window", async () => {
      const { store, id } = await warm(0n);
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, index) => store.admit(rated(id, `r${index}`, [minute(T0, 20)]))),
      );
      expect(results.filter((result) => result.status === "admitted")).toHaveLength(20);
    });
  });
}
