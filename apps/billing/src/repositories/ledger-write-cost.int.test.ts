import { randomUUID } from "node:crypto";
import { connectDatabase, type Database } from "@gw/db";
import { describeWith } from "@gw/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SCHEMA } from "../db/index.js";
import type { BillingTables } from "../db/schema.js";
import { createBillingTestDatabase, type TestDatabase } from "../test/database.js";
import { eventually } from "../test/eventually.js";
import { indexEntries, insertedRows } from "../test/write-cost.js";
import { insertUsageEntries, inTransaction, type UsageEntryInput } from "./ledger-write.js";

let test: TestDatabase;
/** One connection, so the statements it prepared and the statistics it reports are all in one place. */
let single: Database<BillingTables>;

function usage(accountId: string, model = "openai/gpt-4o-mini"): UsageEntryInput {
  return {
    accountId,
    eventId: `gen-${randomUUID()}`,
    keyHash: "k".repeat(64),
    model,
    isByok: false,
    costPico: 5n,
    byokCostPico: 0n,
    createdAt: new Date(),
  };
}

const writeBatch = (inputs: UsageEntryInput[]) =>
  inTransaction(single.db, (trx) => insertUsageEntries(trx, inputs));

describeWith(["postgres"], "ledger: what a usage batch costs PostgreSQL", () => {
  beforeAll(async () => {
    test = await createBillingTestDatabase();
    single = connectDatabase<BillingTables>({ url: test.url, schema: SCHEMA, maxConnections: 1 });
  });

  afterAll(async () => {
    await single.close();
    await test.drop();
  });

  it("runs every batch, whatever its size, as the same two statements prepared once, a redelivered one too", async () => {
    const account = `acct_${randomUUID()}`;
    const batches = [1, 7, 40].map((size) => Array.from({ length: size }, () => usage(account)));
    for (const batch of batches) await writeBatch(batch);
    // Written again: the insert itself reports the rows already there, no further statement.
    await writeBatch([...(batches[1] ?? []), usage(account)]);
    const { rows } = await sql<{ name: string; runs: number }>`
      select name, (generic_plans + custom_plans)::int as runs from pg_prepared_statements order by name
    `.execute(single.db);
    expect(rows).toEqual([
      { name: "billing_insert_usage", runs: 4 },
      { name: "billing_lock_accounts", runs: 4 },
    ]);
  });

  it("writes one heap row and three index entries per usage event with a key", async () => {
    const accounts = [`acct_${randomUUID()}`, `acct_${randomUUID()}`];
    // The ledger is append-only: once flushed, the insert count is the number of rows it holds.
    const rowsNow = async () =>
      Number(
        (
          await test.database.db
            .selectFrom("ledger_entries")
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await rowsNow();
    await writeBatch(Array.from({ length: 20 }, (_, index) => usage(accounts[index % 2] as string)));
    // The writer reports its statistics once idle; this makes it do so at its next transaction's end.
    await sql`select pg_stat_force_next_flush()`.execute(single.db);
    expect(await rowsNow()).toBe(before + 20);
    await eventually(async () => expect(await insertedRows(test.database.db)).toBe(before + 20));
    expect(await indexEntries(test.database.db, accounts)).toEqual({
      ledger_entries_event_id_key: 20,
      ledger_entries_free_requests: 0,
      ledger_entries_key_window: 20,
      ledger_entries_pkey: 20,
      ledger_entries_reference: 0,
    });
  });

  it("adds the free-tier index entry only for a request to a :free variant", async () => {
    const account = `acct_${randomUUID()}`;
    await writeBatch([usage(account, "meta/llama-3:free"), usage(account)]);
    expect((await indexEntries(test.database.db, [account])).ledger_entries_free_requests).toBe(1);
  });
});
