import { describeWith } from "@gw/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type GenerationsHarness, startGenerationsHarness } from "../test/harness.js";

describeWith(["postgres"], "generations health and readiness", () => {
  let harness: GenerationsHarness;

  beforeAll(async () => {
    harness = await startGenerationsHarness();
  });

  afterAll(async () => {
    await harness?.close();
  });

  const probe = async (path: string) => {
    const response = await fetch(`${harness.running.httpUrl}${path}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("/healthz is 200 and /readyz reports the database with every migration applied", async () => {
    expect(await probe("/healthz")).toEqual({ status: 200, body: { status: "ok" } });
    const ready = await probe("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: "ready",
      checks: { database: { ok: true, pending: [] }, events: { ok: true, backlog: 0 } },
    });
  });

  it("/readyz is 503 naming a migration the database lacks", async () => {
    const latest = await sql<{ name: string }>`
      select name from generations.kysely_migration order by name desc limit 1`.execute(harness.database.db);
    const name = latest.rows[0]?.name ?? "";
    await sql`delete from generations.kysely_migration where name = ${name}`.execute(harness.database.db);
    try {
      const ready = await probe("/readyz");
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({
        status: "not_ready",
        checks: { database: { ok: false, pending: [name] } },
      });
    } finally {
      await sql`insert into generations.kysely_migration (name, timestamp) values (${name}, now())`.execute(
        harness.database.db,
      );
    }
    expect((await probe("/readyz")).status).toBe(200);
  });

  it("a stopping app answers /readyz 503 draining", async () => {
    harness.running.readiness.drain();
    expect(await probe("/readyz")).toMatchObject({ status: 503, body: { status: "draining" } });
    expect((await probe("/healthz")).status).toBe(200);
  });
});
