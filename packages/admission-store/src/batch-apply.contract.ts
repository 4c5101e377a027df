import { describe, expect, it } from "vitest";
import type {
  AccountLedgerEntry,
  AdmissionStore,
  AdmissionStoreOptions,
  AdmitRequest,
} from "./admission-store.js";

const T0 = 1_800_000_000_000;
const TTL = 60_000;
const KEY = "b".repeat(64);
const WINDOW_START = T0 - 1_000;

let counter = 0;
const account = (): string => `acct-batch-${process.pid}-${++counter}`;

const admit = (accountId: string, holdId: string, amountPico: bigint, keyed = false): AdmitRequest => ({
  accountId,
  holdId,
  amountPico,
  ttlMs: TTL,
  now: T0,
  ...(keyed ? { keyLimit: { keyHash: KEY, limitPico: 10_000n, windowStartMs: WINDOW_START } } : {}),
});

interface Accounts {
  settled: string;
  keyed: string;
  leased: string;
  cold: string;
}

/** The same starting state in any store: a settled and a held request, a key window, a lease. */
async function prepare(store: AdmissionStore, ids: Accounts): Promise<void> {
  for (const id of [ids.settled, ids.keyed, ids.leased])
    await store.load(id, { balancePico: 1_000n, seq: 10n }, T0);
  await store.admit(admit(ids.settled, "g1", 40n));
  await store.settle(ids.settled, "g1", 30n);
  await store.admit(admit(ids.settled, "g2", 50n));
  await store.loadKey(ids.keyed, { keyHash: KEY, windowStartMs: WINDOW_START, spentPico: 5n, seq: 10n });
  await store.admit(admit(ids.keyed, "g3", 20n, true));
  await store.admit(admit(ids.leased, "lease-1", 200n));
}

/** Accounts interleaved, a redelivery, an entry the snapshot covers, purchases, lease debits. */
function batchOf(ids: Accounts): AccountLedgerEntry[] {
  return [
    { accountId: ids.settled, entry: { entryId: 11n, amountPico: -30n, pendingRef: "g1" } },
    {
      accountId: ids.keyed,
      entry: {
        entryId: 11n,
        amountPico: -20n,
        pendingRef: "g3",
        keyHash: KEY,
        createdAtMs: T0,
        byokPico: 0n,
      },
    },
    {
      accountId: ids.leased,
      entry: { entryId: 11n, amountPico: -15n, pendingRef: "r1", leaseRef: "lease-1" },
    },
    { accountId: ids.cold, entry: { entryId: 3n, amountPico: 7n, isPurchase: true } },
    { accountId: ids.settled, entry: { entryId: 11n, amountPico: -30n, pendingRef: "g1" } },
    { accountId: ids.settled, entry: { entryId: 9n, amountPico: -1n, pendingRef: "g2" } },
    { accountId: ids.settled, entry: { entryId: 12n, amountPico: 500n, isPurchase: true } },
    {
      accountId: ids.leased,
      entry: { entryId: 12n, amountPico: -300n, pendingRef: "r2", leaseRef: "lease-1" },
    },
  ];
}

/** Applying many entries at once: part of the AdmissionStore contract. */
export function describeBatchApplyContract(
  name: string,
  make: (options?: AdmissionStoreOptions) => Promise<AdmissionStore>,
): void {
  describe(`${name}: applying a batch of ledger entries`, () => {
    it("leaves every account as applying the entries one by one would, with the same results", async () => {
      const [batched, single] = [await make(), await make()];
      const ids: Accounts = { settled: account(), keyed: account(), leased: account(), cold: account() };
      await prepare(batched, ids);
      await prepare(single, ids);
      const entries = batchOf(ids);

      const results = await batched.applyLedgerEntries(entries);
      const one: string[] = [];
      for (const { accountId, entry } of entries) one.push(await single.applyLedgerEntry(accountId, entry));
      expect(results).toEqual([
        "applied",
        "applied",
        "applied",
        "cold",
        "included",
        "included",
        "applied",
        "applied",
      ]);
      expect(results).toEqual(one);
      for (const store of [batched, single]) await store.load(ids.cold, { balancePico: 0n, seq: 2n }, T0);
      for (const id of Object.values(ids))
        expect(await batched.view(id, T0)).toEqual(await single.view(id, T0));

      expect(await batched.view(ids.settled, T0)).toMatchObject({
        balancePico: 1_470n,
        purchasedPico: 500n,
        pendingPico: 0n,
        heldPico: 0n,
      });
      expect((await batched.view(ids.keyed, T0))?.keyUsed).toEqual({ [`${KEY}@${WINDOW_START}`]: 25n });
      // Both lease debits leave the lease's hold: 200 − 15 − min(300, 185).
      expect((await batched.view(ids.leased, T0))?.holds).toEqual({ "lease-1": 0n });
      expect(await batched.view(ids.cold, T0)).toMatchObject({ balancePico: 7n, purchasedPico: 7n });
    });

    it("applies a batch larger than one script call, an account's many entries included", async () => {
      const store = await make();
      const many = account();
      const few = Array.from({ length: 30 }, () => account());
      for (const id of [many, ...few]) await store.load(id, { balancePico: 10_000n, seq: 1n }, T0);
      const entries: AccountLedgerEntry[] = [];
      for (let index = 0; index < 300; index++) {
        entries.push({ accountId: many, entry: { entryId: BigInt(2 + index), amountPico: -1n } });
        const other = few[index % few.length] as string;
        entries.push({ accountId: other, entry: { entryId: BigInt(2 + index), amountPico: -2n } });
      }
      const results = await store.applyLedgerEntries(entries);
      expect(results).toHaveLength(600);
      expect(results.every((result) => result === "applied")).toBe(true);
      expect((await store.view(many, T0))?.balancePico).toBe(9_700n);
      for (const id of few) expect((await store.view(id, T0))?.balancePico).toBe(10_000n - 2n * 10n);
    });

    it("refuses a batch holding a malformed entry before applying any of it", async () => {
      const store = await make();
      const id = account();
      await store.load(id, { balancePico: 100n, seq: 1n }, T0);
      const good = { accountId: id, entry: { entryId: 5n, amountPico: -10n } };
      await expect(
        store.applyLedgerEntries([good, { accountId: "bad{x}", entry: { entryId: 6n, amountPico: -1n } }]),
      ).rejects.toThrow(/account id/);
      await expect(
        store.applyLedgerEntries([good, { accountId: id, entry: { entryId: 0n, amountPico: -1n } }]),
      ).rejects.toThrow(/entry id/);
      expect((await store.view(id, T0))?.balancePico).toBe(100n);
    });

    it("answers an empty batch with no results", async () => {
      expect(await (await make()).applyLedgerEntries([])).toEqual([]);
    });
  });
}
