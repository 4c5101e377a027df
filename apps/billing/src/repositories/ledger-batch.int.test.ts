import { randomUUID } from "node:crypto";
import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createBillingTestDatabase, type TestDatabase } from "../test/database.js";
import { insertUsageEntries, insertUsageEntry, inTransaction, type UsageEntryInput } from "./ledger-write.js";

let test: TestDatabase;

const accountId = (): string => `acct_${randomUUID()}`;

function usage(account: string, costPico: bigint, eventId = `gen-${randomUUID()}`): UsageEntryInput {
  return {
    accountId: account,
    eventId,
    keyHash: "k".repeat(64),
    model: "openai/gpt-4o-mini",
    isByok: false,
    costPico,
    byokCostPico: 0n,
    createdAt: new Date(),
  };
}

const writeBatch = (inputs: UsageEntryInput[]) =>
  inTransaction(test.database.db, (trx) => insertUsageEntries(trx, inputs));

const amountsOf = (eventIds: string[]) =>
  test.database.db
    .selectFrom("ledger_entries")
    .select(["event_id", "amount"])
    .where("event_id", "in", eventIds)
    .orderBy("id")
    .execute();

describeWith(["postgres"], "ledger: usage batches", () => {
  beforeAll(async () => {
    test = await createBillingTestDatabase();
  });

  afterAll(async () => {
    await test.drop();
  });

  it("writes new events, a repeated event once (its first copy) and reports an existing one by its id", async () => {
    const [a, b] = [accountId(), accountId()];
    const earlier = usage(a, 7n);
    const existing = await inTransaction(test.database.db, (trx) => insertUsageEntry(trx, earlier));
    const fresh = usage(a, 100n);
    const repeated = usage(b, 200n);
    const written = await writeBatch([fresh, repeated, earlier, { ...repeated, costPico: 999n }]);

    expect(written.get(earlier.eventId)).toEqual({ id: existing.id, inserted: false });
    expect(written.get(fresh.eventId)?.inserted).toBe(true);
    expect(written.get(repeated.eventId)?.inserted).toBe(true);
    expect(written.size).toBe(3);
    expect(await amountsOf([earlier.eventId, fresh.eventId, repeated.eventId])).toEqual([
      { event_id: earlier.eventId, amount: "-0.000000000007" },
      { event_id: fresh.eventId, amount: "-0.000000000100" },
      { event_id: repeated.eventId, amount: "-0.000000000200" },
    ]);
  });

  it("a batch written again changes nothing and returns the same ids", async () => {
    const batch = [usage(accountId(), 1n), usage(accountId(), 2n)];
    const first = await writeBatch(batch);
    const again = await writeBatch(batch);
    for (const input of batch) {
      expect(again.get(input.eventId)).toEqual({ id: first.get(input.eventId)?.id, inserted: false });
    }
    expect(await amountsOf(batch.map((input) => input.eventId))).toHaveLength(2);
  });

  it("concurrent batches over the same accounts in opposite order all commit (no deadlock)", async () => {
    const accounts = [accountId(), accountId(), accountId()];
    const rounds = 20;
    const writes: Promise<unknown>[] = [];
    for (let round = 0; round < rounds; round++) {
      writes.push(writeBatch(accounts.map((account) => usage(account, 1n))));
      writes.push(writeBatch([...accounts].reverse().map((account) => usage(account, 1n))));
    }
    const results = await Promise.allSettled(writes);
    expect(results.filter((result) => result.status === "rejected")).toEqual([]);
    const count = await test.database.db
      .selectFrom("ledger_entries")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("account_id", "in", accounts)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(rounds * 2 * accounts.length);
  });
});
