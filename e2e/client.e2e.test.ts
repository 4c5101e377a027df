import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { creditsSchema } from "@gw/billing";
import { createGatewayClient, type GatewayClient } from "@gw/client";
import { freePort } from "@gw/db";
import { chatCompletionSchema, keyInfoSchema } from "@gw/edge";
import { generationSchema } from "@gw/generations";
import { credentialSchema, endpointSchema, keySchema, modelSchema } from "@gw/keys";
import { OPENAPI_JSON_URL } from "@gw/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppProcess, eventually, startProcess, waitForHttp } from "./processes.js";

// The dashboards' typed client (@gw/client, generated from the OpenAPI document) against the running
// gateway: every call below is typed from packages/openapi/openapi.json, so a route whose answer drifts
// from its document fails here as well as in the coverage tests. The embedded default serves all four
// apps behind one edge, as the split plane does behind its edge.

/** The answer is what the document says: it parses, and (`exact`) it has no field the schema lacks. */
function expectDocumented(
  schema: { safeParse(value: unknown): { error?: { issues: unknown[] } }; shape?: object },
  value: unknown,
  exact = true,
): void {
  expect(schema.safeParse(value).error?.issues ?? []).toEqual([]);
  if (exact && schema.shape && typeof value === "object" && value !== null)
    expect(Object.keys(value).filter((key) => !(key in (schema.shape ?? {})))).toEqual([]);
}

interface DevCredentials {
  management_key: string;
  api_key: string;
}

describe("the management API through @gw/client", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-client-"));
  let gateway: AppProcess | undefined;
  let url: string;
  let management: GatewayClient;
  let apiKey: string;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = { PORT: String(port), GW_DATA_DIR: dataDir, LOG_LEVEL: "warn" };
    for (const name of ["DATABASE_URL", "REDIS_URL", "KAFKA_BROKERS", "OPENAI_API_KEY"]) env[name] = "";
    // BYOK on, so the client's BYOK routes answer (a fresh master key for this data directory).
    env.BYOK_MASTER_KEY = randomBytes(32).toString("hex");
    gateway = startProcess("standalone", "apps/standalone/dist/main.js", env);
    await waitForHttp(`${url}/readyz`, gateway, 120_000);
    // The credentials file is written once the start-up has finished, after readiness.
    await eventually(
      async () => (gateway?.output().includes("Model Gateway is running on") ? true : undefined),
      30_000,
    );
    const credentials = JSON.parse(
      readFileSync(join(dataDir, "dev-credentials.json"), "utf8"),
    ) as DevCredentials;
    management = createGatewayClient({ baseUrl: url, key: credentials.management_key });
    apiKey = credentials.api_key;
  }, 180_000);

  afterAll(async () => {
    await gateway?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("GET /openapi.json serves the committed document, without a credential", async () => {
    const response = await fetch(`${url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(JSON.parse(readFileSync(OPENAPI_JSON_URL, "utf8")));
  });

  it("creates, reads, updates, lists and deletes an API key", async () => {
    const created = await management.POST("/api/v1/keys", {
      body: { name: "dashboard", limit: 5, limit_reset: "daily" },
    });
    expect(created.response.status).toBe(201);
    const hash = created.data?.data.hash ?? "";
    expect(created.data?.key).toMatch(/^lr_live_/);
    expect(created.data?.data).toMatchObject({ name: "dashboard", limit: 5, limit_reset: "daily" });
    expectDocumented(keySchema, created.data?.data);

    const updated = await management.PATCH("/api/v1/keys/{hash}", {
      params: { path: { hash } },
      body: { name: "dashboard-2", disabled: true },
    });
    expect(updated.data?.data).toMatchObject({ name: "dashboard-2", disabled: true });

    const fetched = await management.GET("/api/v1/keys/{hash}", { params: { path: { hash } } });
    expect(fetched.data?.data.name).toBe("dashboard-2");
    expectDocumented(keySchema, fetched.data?.data);

    const listed = await management.GET("/api/v1/keys", { params: { query: { include_disabled: "true" } } });
    expect(listed.data?.data.map((key) => key.hash)).toContain(hash);

    const deleted = await management.DELETE("/api/v1/keys/{hash}", { params: { path: { hash } } });
    expect(deleted.data).toEqual({ deleted: true, data: { deleted: true } });
    const again = await management.DELETE("/api/v1/keys/{hash}", { params: { path: { hash } } });
    expect(again.response.status).toBe(404);
    expect(again.error?.error.type).toBeTypeOf("string");
  });

  it("stores, renames, lists and deletes a BYOK provider key, never showing it", async () => {
    const stored = await management.POST("/api/v1/byok", {
      body: { provider: "openai", key: "sk-own-provider-key-0123456789", name: "own" },
    });
    expect(stored.response.status).toBe(201);
    const id = stored.data?.data.id ?? "";
    expect(stored.data?.data).toMatchObject({ provider: "openai", name: "own", disabled: false });
    expectDocumented(credentialSchema, stored.data?.data);
    expect(JSON.stringify(stored.data)).not.toContain("sk-own-provider-key-0123456789");

    const renamed = await management.PATCH("/api/v1/byok/{id}", {
      params: { path: { id } },
      body: { name: "own-2" },
    });
    expect(renamed.data?.data.name).toBe("own-2");
    const listed = await management.GET("/api/v1/byok", { params: { query: { provider: "openai" } } });
    expect(listed.data?.data.map((credential) => credential.id)).toEqual([id]);
    expect(listed.data?.total_count).toBe(1);

    const removed = await management.DELETE("/api/v1/byok/{id}", { params: { path: { id } } });
    expect(removed.data?.deleted).toBe(true);
    const gone = await management.GET("/api/v1/byok/{id}", { params: { path: { id } } });
    expect(gone.response.status).toBe(404);
  });

  it("reads the catalogue: models and one model's endpoints", async () => {
    const models = await management.GET("/api/v1/models");
    const demo = models.data?.data.find((model) => model.id === "demo/echo");
    // OpenRouter's model object: prices are decimal strings per token.
    expect(Number(demo?.pricing.prompt)).toBeGreaterThan(0);
    expectDocumented(modelSchema, demo);
    const endpoints = await management.GET("/api/v1/models/{author}/{slug}/endpoints", {
      params: { path: { author: "demo", slug: "echo" } },
    });
    expect(endpoints.data?.data[0]?.provider_id).toBe("demo");
    expectDocumented(endpointSchema, endpoints.data?.data[0]);
  });

  it("a completion through the client, then its generation record, the key's spend and the credits", async () => {
    const inference = createGatewayClient({ baseUrl: url, key: apiKey });
    const completion = await inference.POST("/v1/chat/completions", {
      body: { model: "demo/echo", messages: [{ role: "user", content: "Hello client" }] },
    });
    expect(completion.response.status).toBe(200);
    // The document types the 200 as JSON or, with `stream: true`, an event stream: this one is JSON.
    const body = completion.data;
    if (typeof body !== "object") throw new Error(`expected a JSON completion, got ${typeof body}`);
    const id = body.id;
    expect(id).toBe(completion.response.headers.get("x-generation-id"));
    const cost = body.usage.cost;
    expectDocumented(chatCompletionSchema, body, false);
    expect(cost).toBeGreaterThan(0);

    const generation = await eventually(async () => {
      const lookup = await inference.GET("/api/v1/generation", { params: { query: { id } } });
      return lookup.data?.data;
    });
    expect(generation).toMatchObject({ id, provider: "demo" });
    expectDocumented(generationSchema, generation);

    const key = await inference.GET("/v1/key");
    expect(key.data?.data.usage).toBeGreaterThan(0);
    expectDocumented(keyInfoSchema, key.data?.data);

    const credits = await eventually(async () => {
      const answer = await management.GET("/api/v1/credits");
      return (answer.data?.data.total_usage ?? 0) > 0 ? answer.data?.data : undefined;
    });
    expect(credits.total_usage).toBeCloseTo(cost, 15);
    expectDocumented(creditsSchema, credits);
  });

  it("a refused call is the route's typed error body, not an exception", async () => {
    const stranger = createGatewayClient({ baseUrl: url, key: "lr_mgmt_not-a-key" });
    const refused = await stranger.GET("/api/v1/credits");
    expect(refused.response.status).toBe(401);
    expect(refused.data).toBeUndefined();
    expect(refused.error?.error.message).toBeTypeOf("string");
  });
});
