import { describe, expect, it } from "vitest";
import type { AdmissionStore, AdmissionStoreOptions, AdmitRequest } from "./admission-store.js";

const T0 = 1_800_000_000_000;
const TTL = 60_000;
const KEY = "c".repeat(64);
const WINDOW_START = T0 - 1_000;
const WINDOW = `${KEY}@${WINDOW_START}`;

let counter = 0;
const account = (): string => `acct-lease-${process.pid}-${++counter}`;

/** A lease is an ordinary hold whose id is the lease id, counted against the key's window. */
function lease(accountId: string, leaseId: string, amountPico: bigint, now = T0): AdmitRequest {
  return {
    accountId,
    holdId: leaseId,
    amountPico,
    ttlMs: TTL,
    now,
    keyLimit: { keyHash: KEY, limitPico: 10_000n, windowStartMs: WINDOW_START },
  };
}

/** A usage debit of the lease's key, as the usage consumer applies it. */
const debit = (entryId: bigint, cost: bigint, leaseRef: string) => ({
  entryId,
  amountPico: -cost,
  pendingRef: `gen-${entryId}`,
  keyHash: KEY,
  createdAtMs: T0,
  leaseRef,
});

/** Budget leases: part of the AdmissionStore contract. */
export function describeLeaseContract(
  name: string,
  make: (options?: AdmissionStoreOptions) => Promise<AdmissionStore>,
): void {
  const warm = async () => {
    const store = await make();
    const id = account();
    await store.load(id, { balancePico: 1_000n, seq: 1n }, T0);
    await store.loadKey(id, { keyHash: KEY, windowStartMs: WINDOW_START, spentPico: 0n, seq: 1n });
    return { store, id };
  };

  describe(`${name}: budget leases`, () => {
    it("moves each usage debit of a lease out of its hold exactly once", async () => {
      const { store, id } = await warm();
      expect((await store.admit(lease(id, "L", 400n))).status).toBe("admitted");
      expect(await store.applyLedgerEntry(id, debit(2n, 100n, "L"))).toBe("applied");
      expect(await store.applyLedgerEntry(id, debit(2n, 100n, "L"))).toBe("included");
      const view = await store.view(id, T0);
      expect(view).toMatchObject({ balancePico: 900n, heldPico: 300n, availablePico: 600n });
      expect(view?.holds).toEqual({ L: 300n });
      // The key's window: 100 spent in the ledger + 300 still held by the lease.
      expect(view?.keyUsed).toEqual({ [WINDOW]: 400n });
    });

    it("empties the hold, and no more, when the lease's debits pass it", async () => {
      const { store, id } = await warm();
      await store.admit(lease(id, "L", 100n));
      await store.applyLedgerEntry(id, debit(2n, 150n, "L"));
      const view = await store.view(id, T0);
      expect(view).toMatchObject({ balancePico: 850n, heldPico: 0n, availablePico: 850n });
      expect(view?.holds).toEqual({ L: 0n });
      expect(view?.keyUsed).toEqual({ [WINDOW]: 150n });
    });

    it("keeps a returned lease's unapplied spend pending until its debits arrive, and returns once", async () => {
      const { store, id } = await warm();
      await store.admit(lease(id, "L", 400n));
      await store.applyLedgerEntry(id, debit(2n, 100n, "L"));
      expect(await store.returnLease(id, "L", 250n, T0 + 1)).toBe("returned");
      const returned = await store.view(id, T0 + 1);
      expect(returned).toMatchObject({ heldPico: 0n, pendingPico: 150n, availablePico: 750n });
      expect(returned?.pendingDebits).toEqual({ L: 150n });
      expect(returned?.keyUsed).toEqual({ [WINDOW]: 250n });
      expect(await store.returnLease(id, "L", 250n, T0 + 2)).toBe("no_lease");
      expect((await store.view(id, T0 + 2))?.pendingPico).toBe(150n);
      await store.applyLedgerEntry(id, debit(3n, 120n, "L"));
      expect(await store.view(id, T0 + 2)).toMatchObject({ pendingPico: 30n, availablePico: 750n });
      await store.applyLedgerEntry(id, debit(4n, 30n, "L"));
      await store.applyLedgerEntry(id, debit(4n, 30n, "L"));
      const settled = await store.view(id, T0 + 2);
      expect(settled).toMatchObject({ balancePico: 750n, pendingPico: 0n, availablePico: 750n });
      expect(settled?.pendingDebits).toEqual({});
      expect(settled?.keyUsed).toEqual({ [WINDOW]: 250n });
    });

    it("keeps nothing pending when every debit of the lease has arrived", async () => {
      const { store, id } = await warm();
      await store.admit(lease(id, "L", 400n));
      await store.applyLedgerEntry(id, debit(2n, 100n, "L"));
      expect(await store.returnLease(id, "L", 100n, T0 + 1)).toBe("returned");
      expect((await store.view(id, T0 + 1))?.pendingDebits).toEqual({});
      // A debit arriving after the return with nothing pending is only in the balance.
      await store.applyLedgerEntry(id, debit(3n, 5n, "L"));
      const view = await store.view(id, T0 + 1);
      expect(view).toMatchObject({ balancePico: 895n, heldPico: 0n, pendingPico: 0n, availablePico: 895n });
      expect(view?.keyUsed).toEqual({ [WINDOW]: 105n });
    });

    it("returns nothing for an expired lease, and a returned lease's pending debit expires with its hold", async () => {
      const { store, id } = await warm();
      await store.admit(lease(id, "expired", 400n));
      expect(await store.returnLease(id, "expired", 50n, T0 + TTL)).toBe("no_lease");
      expect(await store.view(id, T0 + TTL)).toMatchObject({ heldPico: 0n, pendingPico: 0n });
      await store.admit(lease(id, "returned", 400n, T0 + TTL));
      await store.returnLease(id, "returned", 50n, T0 + TTL + 1);
      expect((await store.view(id, 2 * TTL + T0 - 1))?.pendingPico).toBe(50n);
      const expired = await store.view(id, T0 + 2 * TTL);
      expect(expired).toMatchObject({ pendingPico: 0n, availablePico: 1_000n });
      expect(expired?.keyUsed).toEqual({ [WINDOW]: 0n });
    });

    it("keeps a lease's hold and arrived debits across a rebase", async () => {
      const { store, id } = await warm();
      await store.admit(lease(id, "L", 400n));
      await store.applyLedgerEntry(id, debit(2n, 100n, "L"));
      expect(await store.load(id, { balancePico: 900n, seq: 2n }, T0)).toBe("loaded");
      expect(await store.view(id, T0)).toMatchObject({ heldPico: 300n, availablePico: 600n });
      await store.returnLease(id, "L", 250n, T0 + 1);
      expect(await store.view(id, T0 + 1)).toMatchObject({ pendingPico: 150n, availablePico: 750n });
    });

    it("ignores a return naming another account's lease, and answers cold without a view", async () => {
      const { store, id } = await warm();
      const other = account();
      await store.load(other, { balancePico: 1_000n, seq: 1n }, T0);
      await store.admit(lease(id, "L", 400n));
      expect(await store.returnLease(other, "L", 0n, T0)).toBe("no_lease");
      expect(await store.view(id, T0)).toMatchObject({ heldPico: 400n, availablePico: 600n });
      expect(await store.returnLease(account(), "L", 0n, T0)).toBe("cold");
    });
  });
}
