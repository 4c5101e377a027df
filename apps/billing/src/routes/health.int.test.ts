import { freePort } from "@gw/db";
import { describeWith } from "@gw/testing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Harness, startHarness } from "../test/harness.js";
import { redisCheck } from "./health.js";

describeWith(["postgres", "redis"], "billing health and readiness", () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness();
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const probe = async (path: string) => {
    const response = await fetch(`${harness.running.httpUrl}${path}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("/healthz is 200 and /readyz reports the ledger's migrations and Redis", async () => {
    expect(await probe("/healthz")).toEqual({ status: 200, body: { status: "ok" } });
    const ready = await probe("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: "ready",
      checks: { database: { ok: true, pending: [] }, hot_store: { ok: true }, events: { ok: true } },
    });
  });

  it("the Redis check fails when Redis does not answer", async () => {
    const port = await freePort();
    const dead = new Redis({ host: "127.0.0.1", port, lazyConnect: true, enableOfflineQueue: false });
    try {
      await expect(Promise.resolve(redisCheck(dead)())).rejects.toThrow();
    } finally {
      dead.disconnect();
    }
  });

  it("a stopping app answers /readyz 503 draining", async () => {
    harness.running.readiness.drain();
    expect(await probe("/readyz")).toMatchObject({ status: 503, body: { status: "draining" } });
  });
});
