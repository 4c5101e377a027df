import { describeWith } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type KeysHarness, startKeysHarness } from "./test/harness.js";

describeWith(["postgres"], "keys health and readiness", () => {
  let harness: KeysHarness;

  beforeAll(async () => {
    harness = await startKeysHarness();
  });

  afterAll(async () => {
    await harness?.close();
  });

  const probe = async (path: string) => {
    const response = await fetch(`${harness.running.httpUrl}${path}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("/healthz is 200 and /readyz reports migrations and the seeded catalogue", async () => {
    expect(await probe("/healthz")).toEqual({ status: 200, body: { status: "ok" } });
    const ready = await probe("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: "ready",
      checks: {
        database: { ok: true, pending: [] },
        catalog: { ok: true, version: expect.any(String) },
        events: { ok: true, backlog: 0 },
      },
    });
  });

  it("/readyz is 503 while the catalogue is not seeded", async () => {
    const meta = await harness.database.db.selectFrom("catalog_meta").selectAll().executeTakeFirstOrThrow();
    await harness.database.db.deleteFrom("catalog_meta").execute();
    try {
      expect(await probe("/readyz")).toMatchObject({
        status: 503,
        body: { status: "not_ready", checks: { catalog: { ok: false, version: null } } },
      });
    } finally {
      await harness.database.db.insertInto("catalog_meta").values(meta).execute();
    }
  });

  it("a stopping app answers /readyz 503 draining", async () => {
    harness.running.readiness.drain();
    expect(await probe("/readyz")).toMatchObject({ status: 503, body: { status: "draining" } });
  });
});
