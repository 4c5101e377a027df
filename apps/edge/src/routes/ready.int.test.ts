import { InProcessEventBus } from "@gw/events";
import { listen } from "@gw/http";
import { silentLogger } from "@gw/logger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { CatalogHolder } from "../catalog/catalog-holder.js";
import { ProviderRegistry } from "../providers/registry.js";
import { RecordingBilling } from "../test/billing.js";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { readJson } from "../test/http.js";
import { resolverFor } from "../test/principals.js";

let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [] });
});

afterAll(async () => {
  await edge?.stop();
});

describe("health and readiness", () => {
  it("GET /healthz is 200 without a key", async () => {
    const response = await fetch(`${edge.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ status: "ok" });
  });

  it("GET /readyz reports the loaded catalogue version and the bus backlog", async () => {
    const response = await fetch(`${edge.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await readJson(response)).toMatchObject({
      status: "ready",
      checks: {
        catalog: { ok: true, version: "test-1", last_error: null },
        events: { ok: true, backlog: 0 },
      },
    });
  });

  it("GET /readyz is 503 until a catalogue is loaded, and inference is unavailable meanwhile", async () => {
    const catalog = new CatalogHolder(async () => {
      throw new Error("keys app down");
    });
    await catalog.refresh();
    const app = createApp({
      principals: resolverFor([]),
      billing: new RecordingBilling(),
      catalog,
      bus: new InProcessEventBus(),
      topics: { usage: "u", keyChanges: "k", payments: "p" },
      providers: new ProviderRegistry([]),
      controlPlane: {
        keysHttpUrl: "http://127.0.0.1:9",
        billingHttpUrl: "http://127.0.0.1:9",
        generationsHttpUrl: "http://127.0.0.1:9",
      },
      logger: silentLogger(),
    });
    const server = await listen(app, "127.0.0.1", 0);
    try {
      const response = await fetch(`${server.url}/readyz`);
      expect(response.status).toBe(503);
      expect(await readJson(response)).toMatchObject({
        status: "not_ready",
        checks: { catalog: { ok: false, version: null, last_error: "keys app down" } },
      });
    } finally {
      await server.close();
    }
  });
});
