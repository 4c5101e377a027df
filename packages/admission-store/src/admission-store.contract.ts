import { describe, expect, it } from "vitest";
import type { AdmissionStore, AdmissionStoreOptions, AdmitRequest } from "./admission-store.js";
import { describeBatchApplyContract } from "./batch-apply.contract.js";
import { describeLeaseContract } from "./lease.contract.js";
import { describeLimitsContract } from "./limits.contract.js";

export type StoreFactory = (options: AdmissionStoreOptions) => Promise<AdmissionStore>;

const USD = 1_000_000_000_000n;
const T0 = 1_800_000_000_000;
const TTL = 60_000;

let counter = 0;
const account = (): string => `acct-${process.pid}-${++counter}`;

function request(accountId: string, holdId: string, amountPico: bigint, now = T0): AdmitRequest {
  return { accountId, holdId, amountPico, ttlMs: TTL, now };
}

/**
 * The behaviour every AdmissionStore must have. Run against each implementation, so the embedded
 * default and production admit, refuse and reconcile identically.
 */
export function describeAdmissionStoreContract(name: string, factory: StoreFactory): void {
  const make = (options: AdmissionStoreOptions = {}) => factory({ maxViewAgeMs: 10 * TTL, ...options });
  describeLimitsContract(name, make);
  describeLeaseContract(name, make);
  describeBatchApplyContract(name, make);

  describe(`${name}: admission`, () => {
    it("answers cold until a snapshot is loaded", async () => {
      const store = await make();
      const id = account();
      expect(await store.admit(request(id, "h1", 1n))).toEqual({ status: "cold" });
      expect(await store.view(id, T0)).toBeUndefined();
      expect(await store.load(id, { balancePico: USD, seq: 7n }, T0)).toBe("loaded");
      expect(await store.admit(request(id, "h1", 1n))).toEqual({ status: "admitted", expiresAt: T0 + TTL });
    });

    it("holds the amount and refuses what the remaining balance cannot cover", async () => {
      const store = await make();
      const id = account();
      await store.load(id, { balancePico: 10n * USD, seq: 1n }, T0);
      expect((await store.admit(request(id, "a", 6n * USD))).status).toBe("admitted");
      expect(await store.admit(request(id, "b", 5n * USD))).toEqual({
        status: "refused",
        reason: "insufficient_credits",
        limitSource: "account",
      });
      const view = await store.view(id, T0);
      expect(view).toMatchObject({ balancePico: 10n * USD, heldPico: 6n * USD, availablePico: 4n * USD });
      expect(view?.holds).toEqual({ a: 6n * USD });
    });

    it("admits an amount equal to the remaining balance, then a free request but no paid one", async () => {
      const store = await make();
      const id = account();
      await store.load(id, { balancePico: 3n, seq: 1n }, T0);
      expect((await store.admit(request(id, "exact", 3n))).status).toBe("admitted");
      expect((await store.admit(request(id, "free", 0n))).status).toBe("admitted");
      expect((await store.admit(request(id, "paid", 1n))).status).toBe("refused");
    });

    it("refuses any request, free ones too, when the balance is negative; admits free ones at zero", async () => {
      const store = await make();
      const zero = account();
      const negative = account();
      await store.load(zero, { balancePico: 0n, seq: 0n }, T0);
      await store.load(negative, { balancePico: -5n, seq: 3n }, T0);
      expect((await store.admit(request(zero, "h", 0n))).status).toBe("admitted");
      expect((await store.admit(request(zero, "p", 1n))).status).toBe("refused");
      expect((await store.admit(request(negative, "h", 0n))).status).toBe("refused");
      expect((await store.view(negative, T0))?.availablePico).toBe(-5n);
    });

    it("is idempotent on the hold id", async () => {
      const store = await make();
      const id = account();
      await store.load(id, { balancePico: 10n, seq: 1n }, T0);
      const first = await store.admit(request(id, "same", 6n));
      const retry = await store.admit(request(id, "same", 6n, T0 + 5));
      expect(retry).toEqual(first);
      expect((await store.view(id, T0))?.heldPico).toBe(6n);
    });

    it("purges expired holds on the next admit so they stop pinning the balance", async () => {
      const store = await make();
      const id = account();
      await store.load(id, { balancePico: 10n, seq: 1n }, T0);
      await store.admit(request(id, "crashed-edge", 10n));
      expect((await store.admit(request(id, "next", 10n, T0 + TTL - 1))).status).toBe("refused");
      expect((await store.admit(request(id, "next", 10n, T0 + TTL))).status).toBe("admitted");
      expect((await store.view(id, T0 + TTL))?.holds).toEqual({ next: 10n });
    });

    it("releases a hold once", async () => {
      const store = await make();
      const id = account();
      await store.load(id, { balancePico: 10n, seq: 1n }, T0);
      await store.admit(request(id, "h", 10n));
      expect(await store.release(id, "h")).toBe(true);
      expect(await store.release(id, "h")).toBe(false);
      expect((await store.view(id, T0))?.availablePico).toBe(10n);
      // Nothing to release on an account with no view.
      expect(await store.release(account(), "h")).toBe(false);
    });

    it("keeps exact pico amounts beyond 2^53", async () => {
      const store = await make();
      const id = account();
      const balance = 9_000_000_000_000_001_234n;
      const amount = 900_000_000_000_000_001n;
      await store.load(id, { balancePico: balance, seq: 12_345_678_901_234_567n }, T0);
      expect((await store.admit(request(id, "big", amount))).status).toBe("admitted");
      await store.settle(id, "big", amount - 1n);
      await store.applyLedgerEntry(id, { entryId: 12_345_678_901_234_568n, amountPico: -3n });
      const view = await store.view(id, T0);
      expect(view?.balancePico).toBe(balance - 3n);
      expect(view?.availablePico).toBe(balance - 3n - (amount - 1n));
      expect(view?.seq).toBe(12_345_678_901_234_567n);
    });

    it("admits exactly as many concurrent requests as the balance covers", async () => {
      const store = await make();
      const id = account();
      const price = 123_456_789n;
      await store.load(id, { balancePico: price * 50n, seq: 1n }, T0);
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, index) => store.admit(request(id, `req-${index}`, price))),
      );
      expect(results.filter((result) => result.status === "admitted")).toHaveLength(50);
      expect(results.filter((result) => result.status === "refused")).toHaveLength(150);
      expect(await store.view(id, T0)).toMatchObject({ heldPico: price * 50n, availablePico: 0n });
    });

    it("rejects malformed input before touching state", async () => {
      const store = await make();
      await expect(store.admit(request("bad{tag}", "h", 1n))).rejects.toThrow(/account id/);
      await expect(store.admit(request(account(), "h", -1n))).rejects.toThrow(/amount/);
    });

    it("keeps each account's holds, pending debits and purchases to itself, across a rebase", async () => {
      const store = await make();
      const [a, b] = [account(), account()];
      for (const id of [a, b]) await store.load(id, { balancePico: 10n * USD, seq: 1n }, T0);
      await store.admit(request(a, "settled", 2n * USD));
      await store.settle(a, "settled", 1n * USD);
      await store.admit(request(a, "held", 3n * USD));
      await store.applyLedgerEntry(a, { entryId: 5n, amountPico: 4n * USD, isPurchase: true });
      // A rebase of b re-adds b's own pending debits and later entries, and nothing of a's.
      await store.load(b, { balancePico: 10n * USD, seq: 2n, purchasedPico: 0n }, T0);
      expect(await store.view(b, T0)).toMatchObject({
        balancePico: 10n * USD,
        heldPico: 0n,
        pendingPico: 0n,
        purchasedPico: 0n,
        availablePico: 10n * USD,
        holds: {},
        pendingDebits: {},
      });
      expect(await store.view(a, T0)).toMatchObject({ heldPico: 3n * USD, pendingPico: 1n * USD });
    });

    it("every method refuses a malformed account, ref or amount before touching state", async () => {
      const store = await make();
      const id = account();
      await store.load(id, { balancePico: 10n * USD, seq: 1n }, T0);
      await store.admit(request(id, "held", 4n * USD));
      const refused = async (call: Promise<unknown>, message: RegExp) =>
        expect(call).rejects.toThrow(
          expect.objectContaining({ name: "AdmissionInputError", message: expect.stringMatching(message) }),
        );
      await refused(store.load("bad{tag}", { balancePico: 1n, seq: 1n }, T0), /account id/);
      await refused(store.load(id, { balancePico: 1n, seq: -1n }, T0), /snapshot seq/);
      await refused(store.settle("a b", "held", 1n), /account id/);
      await refused(store.settle(id, "", 1n), /hold id/);
      await refused(store.settle(id, "held", -1n), /cost out of range/);
      await refused(store.release("", "held"), /account id/);
      await refused(store.release(id, ""), /hold id/);
      await refused(store.applyLedgerEntry("{x}", { entryId: 2n, amountPico: -1n }), /account id/);
      await refused(store.applyLedgerEntry(id, { entryId: 0n, amountPico: -1n }), /entry id/);
      await refused(store.returnLease("a b", "held", 1n, T0), /account id/);
      await refused(store.returnLease(id, "", 1n, T0), /lease id/);
      await refused(store.returnLease(id, "held", -1n, T0), /lease spend out of range/);
      await refused(store.returnLease(id, "held", 1n, -1), /invalid time/);
      const key = { keyHash: "k", windowStartMs: 0, spentPico: 0n, seq: 1n };
      await refused(store.loadKey("a b", key), /account id/);
      await refused(store.loadKey(id, { ...key, keyHash: "k@1" }), /key hash/);
      await refused(store.invalidate("a b"), /account id/);
      await refused(store.view("a b", T0), /account id/);
      // Nothing above changed the account: the hold and balance are as admitted.
      expect(await store.view(id, T0)).toMatchObject({ balancePico: 10n * USD, heldPico: 4n * USD });
    });
  });

  describe(`${name}: settlement and the ledger`, () => {
    it("settle turns a hold into a pending debit of the actual cost, once", async () => {
      const store = await make();
      const id = account();
      await store.load(id, { balancePico: 100n, seq: 1n }, T0);
      await store.admit(request(id, "g1", 40n));
      expect(await store.settle(id, "g1", 15n)).toBe("settled");
      expect(await store.settle(id, "g1", 15n)).toBe("no_hold");
      expect(await store.view(id, T0)).toMatchObject({ heldPico: 0n, pendingPico: 15n, availablePico: 85n });
      expect(await store.settle(account(), "g1", 1n)).toBe("cold");
    });

    it("applying the ledger entry replaces the pending debit and counts once", async () => {
      const store = await make();
      const id = account();
      await store.load(id, { balancePico: 100n, seq: 1n }, T0);
      await store.admit(request(id, "g1", 40n));
      await store.settle(id, "g1", 15n);
      const entry = { entryId: 2n, amountPico: -15n, pendingRef: "g1" };
      expect(await store.applyLedgerEntry(id, entry)).toBe("applied");
      expect(await store.applyLedgerEntry(id, entry)).toBe("included");
      expect(await store.view(id, T0)).toMatchObject({
        balancePico: 85n,
        pendingPico: 0n,
        availablePico: 85n,
      });
    });

    it("an entry the snapshot already covers only drops its pending debit", async () => {
      const store = await make();
      const id = account();
      await store.load(id, { balancePico: 100n, seq: 1n }, T0);
      await store.admit(request(id, "g1", 40n));
      await store.settle(id, "g1", 15n);
      // A reload raced ahead of the consumer: the snapshot (seq 2) includes the debit already.
      await store.load(id, { balancePico: 85n, seq: 2n }, T0);
      expect((await store.view(id, T0))?.availablePico).toBe(70n);
      expect(await store.applyLedgerEntry(id, { entryId: 2n, amountPico: -15n, pendingRef: "g1" })).toBe(
        "included",
      );
      expect(await store.view(id, T0)).toMatchObject({ balancePico: 85n, availablePico: 85n });
    });

    it("an entry that lands before the settle call drops the hold, and the late settle is a no-op", async () => {
      const store = await make();
      const id = account();
      await store.load(id, { balancePico: 100n, seq: 1n }, T0);
      await store.admit(request(id, "g1", 40n));
      await store.applyLedgerEntry(id, { entryId: 5n, amountPico: -15n, pendingRef: "g1" });
      expect(await store.settle(id, "g1", 15n)).toBe("no_hold");
      expect(await store.view(id, T0)).toMatchObject({ heldPico: 0n, pendingPico: 0n, availablePico: 85n });
    });

    it("settle then apply leaves the view equal to a fresh reload of the ledger", async () => {
      const store = await make();
      const id = account();
      const fresh = account();
      await store.load(id, { balancePico: 1_000n, seq: 10n }, T0);
      for (const [index, cost] of [7n, 0n, 93n].entries()) {
        const hold = `g${index}`;
        await store.admit(request(id, hold, 100n));
        await store.settle(id, hold, cost);
        await store.applyLedgerEntry(id, {
          entryId: BigInt(11 + index),
          amountPico: -cost,
          pendingRef: hold,
        });
      }
      await store.load(fresh, { balancePico: 900n, seq: 13n }, T0);
      const [live, reloaded] = [await store.view(id, T0), await store.view(fresh, T0)];
      expect(live).toMatchObject({ balancePico: 900n, heldPico: 0n, pendingPico: 0n, availablePico: 900n });
      expect(live?.availablePico).toBe(reloaded?.availablePico);
      expect(live?.balancePico).toBe(reloaded?.balancePico);
    });
  });

  describe(`${name}: loading and rebasing`, () => {
    it("ignores a snapshot older than the view", async () => {
      const store = await make();
      const id = account();
      await store.load(id, { balancePico: 50n, seq: 9n }, T0);
      expect(await store.load(id, { balancePico: 70n, seq: 8n }, T0)).toBe("ignored");
      expect((await store.view(id, T0))?.balancePico).toBe(50n);
    });

    it("a newer snapshot rebases the balance and keeps holds, pending debits and later entries", async () => {
      const store = await make();
      const id = account();
      await store.load(id, { balancePico: 100n, seq: 10n }, T0);
      await store.admit(request(id, "held", 20n));
      await store.admit(request(id, "settled", 30n));
      await store.settle(id, "settled", 5n);
      await store.applyLedgerEntry(id, { entryId: 12n, amountPico: 1_000n });
      await store.applyLedgerEntry(id, { entryId: 14n, amountPico: -1n });
      // Snapshot at seq 12 (a grant of 1000 and a refund of 7 at id 11): entry 14 is not in it.
      expect(await store.load(id, { balancePico: 1_107n, seq: 12n }, T0)).toBe("loaded");
      const view = await store.view(id, T0);
      expect(view).toMatchObject({ balancePico: 1_106n, seq: 12n, heldPico: 20n, pendingPico: 5n });
      expect(view?.availablePico).toBe(1_081n);
      expect(await store.applyLedgerEntry(id, { entryId: 14n, amountPico: -1n })).toBe("included");
    });

    it("counts an entry applied while cold when the racing load's snapshot predates it", async () => {
      const store = await make();
      const id = account();
      // Admit read the snapshot (seq 4, balance 10); entry 5 committed and was applied before load.
      expect(await store.applyLedgerEntry(id, { entryId: 5n, amountPico: 90n })).toBe("cold");
      await store.load(id, { balancePico: 10n, seq: 4n }, T0);
      expect((await store.view(id, T0))?.balancePico).toBe(100n);
      // A snapshot that already contains entry 5 does not count it twice.
      const other = account();
      await store.applyLedgerEntry(other, { entryId: 5n, amountPico: 90n });
      await store.load(other, { balancePico: 100n, seq: 5n }, T0);
      expect((await store.view(other, T0))?.balancePico).toBe(100n);
    });

    it("answers cold once the view is older than the maximum age, keeping holds across the reload", async () => {
      const store = await make({ maxViewAgeMs: 1_000 });
      const id = account();
      await store.load(id, { balancePico: 10n, seq: 1n }, T0);
      await store.admit(request(id, "a", 4n));
      expect(await store.admit(request(id, "b", 4n, T0 + 1_000))).toEqual({ status: "cold" });
      await store.load(id, { balancePico: 10n, seq: 1n }, T0 + 1_000);
      expect((await store.admit(request(id, "b", 4n, T0 + 1_000))).status).toBe("admitted");
      expect((await store.admit(request(id, "c", 4n, T0 + 1_000))).status).toBe("refused");
    });

    it("invalidate drops the view", async () => {
      const store = await make();
      const id = account();
      await store.load(id, { balancePico: 10n, seq: 1n }, T0);
      await store.invalidate(id);
      expect(await store.view(id, T0)).toBeUndefined();
      expect(await store.admit(request(id, "h", 1n))).toEqual({ status: "cold" });
    });

    it("lets an idle view expire", async () => {
      // Long enough that the view is still there when first read on a loaded machine; then polled.
      const store = await make({ viewTtlMs: 2_000 });
      const id = account();
      await store.load(id, { balancePico: 10n, seq: 1n }, T0);
      expect(await store.view(id, T0)).toBeDefined();
      await expect.poll(() => store.view(id, T0), { timeout: 10_000, interval: 100 }).toBeUndefined();
    });
  });
}
