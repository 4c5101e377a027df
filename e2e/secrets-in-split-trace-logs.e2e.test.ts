import { randomBytes } from "node:crypto";
import { type FakeProviders, startFakeProviders } from "@gw/fake-providers";
import { createTestDatabase, describeWith, kafkaBrokers, type TestDatabase } from "@gw/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  eventually,
  freshTopics,
  runCli,
  type SplitPlane,
  type SplitPlaneApp,
  serviceKeySecrets,
  startSplitPlane,
} from "./processes.js";

// Issue 33: the trace-level secret scan (secrets-in-trace-logs.e2e.test.ts, the embedded default)
// on the split plane's own processes: edge, keys, billing and generations each at LOG_LEVEL=trace with
// real provider credentials (the fakes), traffic on the inference surfaces, keys and BYOK management,
// the generation lookup and refused credentials; then every line each process wrote is scanned for
// every secret used and for anything shaped like one.

const UPSTREAM_KEY = `sk-upstream-${randomBytes(12).toString("hex")}`;
const byokPlaintext = `sk-byok-split-${randomBytes(16).toString("hex")}`;
const APPS: readonly SplitPlaneApp[] = ["edge", "keys", "billing", "generations"];

describeWith(["postgres", "redis", "kafka"], "secrets in the split plane's trace-level logs", () => {
  let database: TestDatabase;
  let upstreams: FakeProviders;
  let plane: SplitPlane;
  const output: Record<SplitPlaneApp, string> = { edge: "", keys: "", billing: "", generations: "" };
  const secrets: Record<string, string> = {};
  const statuses: Record<string, number> = {};

  async function call(
    label: string,
    path: string,
    init: { method?: string; headers: Record<string, string>; body?: unknown },
  ): Promise<{ status: number; json: unknown; generationId: string | null }> {
    const response = await fetch(`${plane.edgeUrl}${path}`, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: {
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await response.text();
    statuses[label] = response.status;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, json, generationId: response.headers.get("x-generation-id") };
  }

  const user = [{ role: "user", content: "a secret-free prompt" }];

  beforeAll(async () => {
    database = await createTestDatabase({ prefix: "splittrace" });
    upstreams = await startFakeProviders({
      apiKey: UPSTREAM_KEY,
      openai: { apiKey: [UPSTREAM_KEY, byokPlaintext] },
    });
    const byokMasterKey = randomBytes(32).toString("hex");
    const walletJwtSecret = randomBytes(32).toString("hex");
    plane = await startSplitPlane({
      topics: await freshTopics("splittrace", kafkaBrokers()),
      databaseUrl: database.url,
      redisPrefix: "splittrace",
      env: { LOG_LEVEL: "trace", BYOK_MASTER_KEY: byokMasterKey, WALLET_JWT_SECRET: walletJwtSecret },
      edgeEnv: {
        OPENAI_API_KEY: UPSTREAM_KEY,
        OPENAI_BASE_URL: upstreams.openai.baseUrl,
        ANTHROPIC_API_KEY: UPSTREAM_KEY,
        ANTHROPIC_BASE_URL: upstreams.anthropic.baseUrl,
        GEMINI_API_KEY: UPSTREAM_KEY,
        GEMINI_BASE_URL: upstreams.gemini.baseUrl,
      },
      onOutput: (app, chunk) => {
        output[app] += chunk;
      },
    });
    const created = JSON.parse(
      await runCli(
        "apps/standalone/dist/cli/main.js",
        ["accounts", "create", "--name", "split-trace", "--credits", "10", "--json"],
        { DATABASE_URL: database.url },
      ),
    ) as { management_key: string };
    const management = { authorization: `Bearer ${created.management_key}` };
    const made = await call("create key", "/api/v1/keys", { headers: management, body: { name: "traced" } });
    const { key: apiKey, data } = made.json as { key: string; data: { hash: string } };
    Object.assign(secrets, {
      apiKey,
      managementKey: created.management_key,
      upstreamKey: UPSTREAM_KEY,
      byokPlaintext,
      byokMasterKey,
      walletJwtSecret,
    });
    for (const [name, key] of Object.entries(serviceKeySecrets())) secrets[`service key ${name}`] = key;

    const bearer = { authorization: `Bearer ${apiKey}` };
    const chat = await call("chat", "/v1/chat/completions", {
      headers: bearer,
      body: { model: "openai/gpt-4o-mini", messages: user, max_tokens: 16 },
    });
    await call("chat stream", "/v1/chat/completions", {
      headers: bearer,
      body: { model: "anthropic/claude-3-5-haiku", messages: user, max_tokens: 16, stream: true },
    });
    await call("embeddings", "/v1/embeddings", {
      headers: bearer,
      body: { model: "openai/text-embedding-3-small", input: "hello" },
    });
    await call("messages", "/v1/messages", {
      headers: { "x-api-key": apiKey },
      body: { model: "anthropic/claude-3-5-haiku", max_tokens: 16, messages: user },
    });
    const gemini = { contents: [{ role: "user", parts: [{ text: "hello" }] }] };
    await call("gemini ?key=", `/v1beta/models/gemini-2.5-flash:generateContent?key=${apiKey}`, {
      headers: {},
      body: gemini,
    });
    await call("proxy openai", "/openai/v1/chat/completions", {
      headers: bearer,
      body: { model: "gpt-4o-mini", messages: user, max_tokens: 16 },
    });
    await call("key info", "/v1/key", { headers: bearer });
    await call("list keys", "/api/v1/keys", { headers: management });
    await call("update key", `/api/v1/keys/${data.hash}`, {
      method: "PATCH",
      headers: management,
      body: { name: "traced, renamed" },
    });
    const byok = await call("create BYOK", "/api/v1/byok", {
      headers: management,
      body: { provider: "openai", key: byokPlaintext, name: "own key" },
    });
    // On the split plane the edge learns of the new credential through the key-change channel: ask until
    // a call goes out with it (the statuses check below holds the last answer).
    await eventually(async () => {
      await call("BYOK chat", "/v1/chat/completions", {
        headers: bearer,
        body: { model: "openai/gpt-4o-mini", messages: user, max_tokens: 16 },
      });
      const sent = upstreams.openai.requests().map((request) => request.headers.authorization);
      return sent.includes(`Bearer ${byokPlaintext}`) ? true : undefined;
    }, 15_000);
    const credentialId = (byok.json as { data: { id: string } }).data.id;
    await call("delete BYOK", `/api/v1/byok/${credentialId}`, { method: "DELETE", headers: management });
    await call("credits", "/api/v1/credits", { headers: management });
    await eventually(async () => {
      const lookup = await call("generation", `/api/v1/generation?id=${chat.generationId}`, {
        headers: bearer,
      });
      return lookup.status === 200 ? true : undefined;
    }, 60_000);
    const nearMiss = `${apiKey.slice(0, -4)}0000`;
    secrets.nearMissKey = nearMiss;
    await call("refused key", "/v1/chat/completions", {
      headers: { authorization: `Bearer ${nearMiss}` },
      body: { model: "openai/gpt-4o-mini", messages: user },
    });
    await call("refused management key", "/api/v1/keys", {
      headers: { authorization: `Bearer ${nearMiss}` },
    });
    // Let the usage events be consumed and logged, then stop every process: its last lines are read too.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await plane.stop();
  }, 300_000);

  afterAll(async () => {
    await plane?.stop();
    await upstreams?.close();
    await database?.drop();
  });

  it("served the traffic it claims to have run", () => {
    for (const label of [
      "chat",
      "chat stream",
      "embeddings",
      "messages",
      "gemini ?key=",
      "proxy openai",
      "key info",
      "list keys",
      "update key",
      "BYOK chat",
      "delete BYOK",
      "credits",
      "generation",
    ])
      expect(statuses[label], label).toBe(200);
    expect(statuses["create key"]).toBe(201);
    expect(statuses["create BYOK"]).toBe(201);
    expect(statuses["refused key"]).toBe(401);
    expect(statuses["refused management key"]).toBe(401);
    const sent = upstreams.openai.requests().map((request) => request.headers.authorization);
    expect(sent).toContain(`Bearer ${byokPlaintext}`);
  });

  it("ran every process at trace level (each wrote debug-level lines)", () => {
    const verbose = APPS.map((app) => [
      app,
      output[app].split("\n").filter((line) => /"level":(10|20),/.test(line)).length,
    ]);
    console.log(`split trace lines at debug or trace: ${JSON.stringify(Object.fromEntries(verbose))}`);
    for (const [app, count] of verbose) expect(count, String(app)).toBeGreaterThan(0);
  });

  it("has no line with any secret used, in any process", () => {
    for (const [name, secret] of Object.entries(secrets)) expect(secret.length, name).toBeGreaterThan(16);
    const leaks = APPS.flatMap((app) =>
      Object.entries(secrets)
        .filter(([, secret]) => output[app].includes(secret))
        .map(([name]) => `${app}: ${name}`),
    );
    expect(leaks).toEqual([]);
  });

  it("has nothing shaped like a gateway key or a JWT in any process", () => {
    for (const app of APPS) {
      expect(output[app].match(/lr_(live|mgmt)_[0-9a-f]{16,}/g) ?? [], app).toEqual([]);
      expect(output[app].match(/eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/g) ?? [], app).toEqual([]);
      expect(output[app].match(/sk-(upstream|byok)[\w-]{8,}/g) ?? [], app).toEqual([]);
    }
  });
});
