import { randomUUID } from "node:crypto";
import { MemoryAdmissionStore } from "@gw/admission-store";
import { silentLogger } from "@gw/logger";
import { describeWith } from "@gw/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { addCredits } from "../operator/credits.js";
import { createBillingTestDatabase, type TestDatabase } from "../test/database.js";
import { eventually } from "../test/eventually.js";
import { USD } from "../test/harness.js";
import { LEDGER_CHANNEL } from "./channel.js";
import { type LedgerListener, startLedgerListener } from "./ledger-listener.js";

describeWith(["postgres"], "ledger listener", () => {
  let test: TestDatabase;
  let listener: LedgerListener;
  const store = new MemoryAdmissionStore();

  beforeAll(async () => {
    test = await createBillingTestDatabase();
    listener = await startLedgerListener({
      pool: test.database.pool,
      store,
      logger: silentLogger(),
      retryMs: 50,
    });
  });

  afterAll(async () => {
    await listener.stop();
    await test.drop();
  });

  const creditAndExpect = async (account: string, balance: bigint) => {
    await addCredits(test.connectAgain(), { accountId: account, amountPico: USD, kind: "grant" });
    await eventually(async () => expect((await store.view(account))?.balancePico).toBe(balance));
  };

  it("applies a credit committed by another connection to a loaded view", async () => {
    const account = `acct_${randomUUID()}`;
    await store.load(account, { balancePico: 0n, seq: 0n });
    await creditAndExpect(account, USD);
  });

  it("does not hear of a credit whose transaction rolled back", async () => {
    const account = `acct_${randomUUID()}`;
    await store.load(account, { balancePico: 0n, seq: 0n });
    await test.database.db
      .transaction()
      .execute(async (trx) => {
        await sql`select pg_notify(${LEDGER_CHANNEL}, ${JSON.stringify({ accountId: account, entryId: "999999", amountPico: "5" })})`.execute(
          trx,
        );
        throw new Error("rollback");
      })
      .catch(() => {});
    await creditAndExpect(account, USD);
  });

  it("listens again after its connection is killed", async () => {
    const account = `acct_${randomUUID()}`;
    await store.load(account, { balancePico: 0n, seq: 0n });
    const listeners = async () =>
      (
        await sql<{ pid: number }>`
          select pid from pg_stat_activity
          where datname = current_database() and query ilike ${`listen ${LEDGER_CHANNEL}%`}
        `.execute(test.database.db)
      ).rows.map((row) => row.pid);
    const [killed] = await listeners();
    expect(killed).toBeDefined();
    await sql`select pg_terminate_backend(${killed})`.execute(test.database.db);
    await eventually(async () => {
      const pids = await listeners();
      expect(pids).toHaveLength(1);
      expect(pids).not.toContain(killed);
    });
    await creditAndExpect(account, USD);
  });

  it("leaves a stopped listener's connection to the pool when that connection later dies", async () => {
    const own = await startLedgerListener({
      pool: test.database.pool,
      store,
      logger: silentLogger(),
      retryMs: 50,
    });
    await own.stop();
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", record);
    try {
      // Kill every idle pooled connection, the one the stopped listener used included.
      await sql`
        select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and state = 'idle'
      `.execute(test.connectAgain().db);
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      process.off("uncaughtException", record);
    }
    expect(uncaught).toEqual([]);
    // The pool replaces the dead connections and the running listener recovers.
    const account = `acct_${randomUUID()}`;
    await store.load(account, { balancePico: 0n, seq: 0n });
    await creditAndExpect(account, USD);
  });
});
