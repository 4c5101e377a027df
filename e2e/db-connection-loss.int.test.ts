import { connectDatabase, type Database } from "@gw/db";
import { createTestDatabase, describeWith, type TestDatabase } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";

// Issue 33: billing exited when PostgreSQL was killed under traffic (e2e/infra-faults.e2e.test.ts).
// pg-pool takes its error listener off a client while it is checked out, and pg emits 'error' on a
// client whose server goes away; with no listener that is an uncaught exception and the process
// exits. Every pool @gw/db makes now keeps a listener on each of its clients.

describeWith(["postgres"], "a checked-out connection whose server goes away", () => {
  let test: TestDatabase;
  let database: Database<unknown>;
  let admin: Database<unknown>;

  beforeAll(async () => {
    test = await createTestDatabase({ prefix: "connloss" });
    database = connectDatabase<unknown>({ url: test.url, schema: "public", maxConnections: 2 });
    admin = connectDatabase<unknown>({ url: test.url, schema: "public", maxConnections: 1 });
  });

  afterAll(async () => {
    await database?.close();
    await admin?.close();
    await test?.drop();
  });

  it("does not throw an uncaught error, and the pool serves again", async () => {
    const client = await database.pool.connect();
    const pid = (await client.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]?.pid;
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", record);
    try {
      // The server ends this backend while the app holds its connection (as a crash ends them all).
      await admin.pool.query("select pg_terminate_backend($1)", [pid]);
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      process.off("uncaughtException", record);
    }
    expect(uncaught).toEqual([]);
    client.release(true);
    const again = await database.pool.query<{ one: number }>("select 1 as one");
    expect(again.rows[0]?.one).toBe(1);
  });
});
