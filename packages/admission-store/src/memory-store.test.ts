import { describe, expect, it } from "vitest";
import { describeAdmissionStoreContract } from "./admission-store.contract.js";
import { MemoryAdmissionStore } from "./memory-store.js";

describeAdmissionStoreContract("MemoryAdmissionStore", async (options) => new MemoryAdmissionStore(options));

describe("MemoryAdmissionStore", () => {
  it("forgets an entry applied to a cold view after the cold-entry ttl", async () => {
    let clock = 0;
    const store = new MemoryAdmissionStore({ clock: () => clock, coldEntryTtlMs: 100 });
    await store.applyLedgerEntry("a", { entryId: 5n, amountPico: 90n });
    clock = 100;
    await store.load("a", { balancePico: 10n, seq: 4n }, 0);
    expect((await store.view("a", 0))?.balancePico).toBe(10n);
  });
});
