import { randomUUID } from "node:crypto";
import { describeWith } from "@gw/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { addCredits, CreditsInputError, getCredits } from "../operator/credits.js";
import { createBillingTestDatabase, type TestDatabase } from "../test/database.js";
import { USD } from "../test/harness.js";
import { ledgerSnapshot } from "./ledger-read.js";
import { insertUsageEntry, inTransaction, type UsageEntryInput } from "./ledger-write.js";

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

const writeUsage = (input: UsageEntryInput) =>
  inTransaction(test.database.db, (trx) => insertUsageEntry(trx, input));

describeWith(["postgres"], "ledger", () => {
  beforeAll(async () => {
    test = await createBillingTestDatabase();
  });

  afterAll(async () => {
    await test.drop();
  });

  it("records the same usage event once, returning the existing entry on a replay", async () => {
    const account = accountId();
    const event = usage(account, 1_500n);
    const first = await writeUsage(event);
    const replay = await writeUsage(event);
    expect(first.inserted).toBe(true);
    expect(replay).toEqual({ id: first.id, inserted: false });
    const rows = await test.database.db
      .selectFrom("ledger_entries")
      .select(["amount", "kind"])
      .where("event_id", "=", event.eventId)
      .execute();
    expect(rows).toEqual([{ amount: "-0.000000001500", kind: "usage" }]);
  });

  it("credits a reference once and refuses to reuse it for a different credit", async () => {
    const account = accountId();
    const reference = `payment-${randomUUID()}`;
    const first = await addCredits(test.database, {
      accountId: account,
      amountPico: 5n * USD,
      kind: "purchase",
      reference,
    });
    const replay = await addCredits(test.database, {
      accountId: account,
      amountPico: 5n * USD,
      kind: "purchase",
      reference,
    });
    expect(first.created).toBe(true);
    expect(replay).toEqual({ entryId: first.entryId, created: false });
    await expect(
      addCredits(test.database, { accountId: account, amountPico: 6n * USD, kind: "purchase", reference }),
    ).rejects.toThrow(CreditsInputError);
    expect((await getCredits(test.database, account)).totalCreditsPico).toBe(5n * USD);
  });

  it("rejects credits that are not positive", async () => {
    await expect(
      addCredits(test.database, { accountId: accountId(), amountPico: 0n, kind: "grant" }),
    ).rejects.toThrow(/positive/);
  });

  it("is append-only: updates and deletes are refused by the database", async () => {
    const account = accountId();
    await writeUsage(usage(account, 10n));
    await expect(
      test.database.db
        .updateTable("ledger_entries")
        .set({ amount: "0" })
        .where("account_id", "=", account)
        .execute(),
    ).rejects.toThrow(/append-only/);
    await expect(
      test.database.db.deleteFrom("ledger_entries").where("account_id", "=", account).execute(),
    ).rejects.toThrow(/append-only/);
  });

  it("refuses a positive usage amount and a usage row without an event id", async () => {
    const insert = (amount: string, eventId: string | null) =>
      test.database.db
        .insertInto("ledger_entries")
        .values({ account_id: accountId(), kind: "usage", amount, event_id: eventId })
        .execute();
    await expect(insert("1", `gen-${randomUUID()}`)).rejects.toThrow(/ledger_entries_sign/);
    await expect(insert("-1", null)).rejects.toThrow(/ledger_entries_usage_event/);
  });

  it("snapshots the balance and the highest entry id of one account", async () => {
    const account = accountId();
    expect(await ledgerSnapshot(test.database.db, account)).toEqual({
      balancePico: 0n,
      seq: 0n,
      purchasedPico: 0n,
    });
    await addCredits(test.database, { accountId: account, amountPico: 2n * USD, kind: "grant" });
    const last = await writeUsage(usage(account, 123_456_789n));
    await writeUsage(usage(accountId(), 99n));
    expect(await ledgerSnapshot(test.database.db, account)).toEqual({
      balancePico: 2n * USD - 123_456_789n,
      seq: last.id,
      purchasedPico: 0n,
    });
  });

  it("derives is_free_tier from purchases: a grant does not end it, a purchase does", async () => {
    const account = accountId();
    await addCredits(test.database, { accountId: account, amountPico: USD, kind: "grant" });
    expect((await getCredits(test.database, account)).isFreeTier).toBe(true);
    await addCredits(test.database, { accountId: account, amountPico: USD, kind: "purchase" });
    await writeUsage(usage(account, USD / 4n));
    expect(await getCredits(test.database, account)).toEqual({
      totalCreditsPico: 2n * USD,
      totalUsagePico: USD / 4n,
      balancePico: 2n * USD - USD / 4n,
      isFreeTier: false,
    });
  });

  it("serialises one account's writes so entry ids follow commit order", async () => {
    const account = accountId();
    let releaseFirst: () => void = () => {};
    const firstHolding = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let firstInserted: () => void = () => {};
    const inserted = new Promise<void>((resolve) => {
      firstInserted = resolve;
    });
    const order: string[] = [];
    const first = inTransaction(test.database.db, async (trx) => {
      const entry = await insertUsageEntry(trx, usage(account, 1n));
      firstInserted();
      await firstHolding;
      order.push("first commits");
      return entry;
    });
    await inserted;
    const second = writeUsage(usage(account, 2n)).then((entry) => {
      order.push("second done");
      return entry;
    });
    // The second writer must wait for the first transaction's lock: Postgres shows it waiting.
    await expect
      .poll(
        async () => {
          const waiting = await sql<{ n: number }>`
            select count(*)::int as n from pg_locks
            where not granted and database = (select oid from pg_database where datname = current_database())
          `.execute(test.database.db);
          return waiting.rows[0]?.n ?? 0;
        },
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    expect(order).toEqual([]);
    releaseFirst();
    const [a, b] = await Promise.all([first, second]);
    expect(order).toEqual(["first commits", "second done"]);
    expect(b.id).toBeGreaterThan(a.id);
    const snapshot = await sql<{
      n: string;
    }>`select count(*)::text as n from ledger_entries where account_id = ${account}`.execute(
      test.database.db,
    );
    expect(snapshot.rows[0]?.n).toBe("2");
  });
});
