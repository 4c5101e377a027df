import { randomBytes } from "node:crypto";
import { freePort } from "@gw/db";
import { type FakeServer, startFakeOpenAi } from "@gw/fake-providers";
import {
  createTestDatabase,
  describeWith,
  kafkaBrokers,
  serviceUrl,
  type TestDatabase,
  uniqueName,
} from "@gw/testing";
import { OpenRouter } from "@openrouter/sdk";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppProcess, eventually, freshTopics, runCli, startProcess, waitForHttp } from "./processes.js";

// Key state changes across a fleet: two edge processes in front of keys, billing and generations on
// PostgreSQL, Redis and Kafka. A change made through edge A must stop the key on edge A at once and on
// edge B within one second (the key-change event), and expiry must bite at `expires_at` exactly.

const PROPAGATION_BOUND_MS = 1_000;
const OWN_GROQ_KEY = "gsk_own_account_key_0123456789";

describeWith(["postgres", "redis", "kafka"], "key changes reach every edge", () => {
  const apps: AppProcess[] = [];
  let database: TestDatabase;
  let upstream: FakeServer;
  let ownGroq: FakeServer;
  let edgeA: string;
  let edgeB: string;
  let managementKey: string;
  let accountId: string;
  const measured: Record<string, number[]> = { disable: [], enable: [], delete: [], scope: [], expiry: [] };
  /** What the operator CLI needs to reach the database and announce changes on the broker. */
  let cliEnv: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    upstream = await startFakeOpenAi({ host: "127.0.0.1", port: 0, requireKey: "sk-upstream-test" });
    ownGroq = await startFakeOpenAi({ host: "127.0.0.1", port: 0, requireKey: OWN_GROQ_KEY });
    const brokers = kafkaBrokers();
    const topics = await freshTopics("prop", brokers);
    const port = {
      keysHttp: await freePort(),
      keysGrpc: await freePort(),
      billingHttp: await freePort(),
      billingGrpc: await freePort(),
      generationsHttp: await freePort(),
      generationsGrpc: await freePort(),
      edgeA: await freePort(),
      edgeB: await freePort(),
    };
    cliEnv = { DATABASE_URL: database.url, KAFKA_BROKERS: brokers.join(","), ...topics };
    const env = {
      ...topics,
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DATABASE_URL: database.url,
      REDIS_URL: serviceUrl("redis"),
      REDIS_KEY_PREFIX: uniqueName("prop"),
      KAFKA_BROKERS: brokers.join(","),
      KEYS_GRPC_ADDRESS: `127.0.0.1:${port.keysGrpc}`,
      BILLING_GRPC_ADDRESS: `127.0.0.1:${port.billingGrpc}`,
      GENERATIONS_GRPC_ADDRESS: `127.0.0.1:${port.generationsGrpc}`,
    };
    const controlPlane = [
      startProcess("keys", "apps/keys/dist/main.js", {
        ...env,
        HTTP_PORT: String(port.keysHttp),
        GRPC_PORT: String(port.keysGrpc),
        BYOK_MASTER_KEY: randomBytes(32).toString("base64"),
      }),
      startProcess("billing", "apps/billing/dist/main.js", {
        ...env,
        HTTP_PORT: String(port.billingHttp),
        GRPC_PORT: String(port.billingGrpc),
      }),
      startProcess("generations", "apps/generations/dist/main.js", {
        ...env,
        HTTP_PORT: String(port.generationsHttp),
        GRPC_PORT: String(port.generationsGrpc),
      }),
    ];
    apps.push(...controlPlane);
    const [keysApp, billingApp, generationsApp] = controlPlane as [AppProcess, AppProcess, AppProcess];
    await Promise.all([
      waitForHttp(`http://127.0.0.1:${port.keysHttp}/healthz`, keysApp),
      waitForHttp(`http://127.0.0.1:${port.billingHttp}/healthz`, billingApp),
      waitForHttp(`http://127.0.0.1:${port.generationsHttp}/healthz`, generationsApp),
    ]);
    const edgeEnv = {
      ...env,
      KEYS_HTTP_URL: `http://127.0.0.1:${port.keysHttp}`,
      BILLING_HTTP_URL: `http://127.0.0.1:${port.billingHttp}`,
      GENERATIONS_HTTP_URL: `http://127.0.0.1:${port.generationsHttp}`,
      OPENAI_API_KEY: "sk-upstream-test",
      OPENAI_BASE_URL: upstream.baseUrl,
      // The gateway has no Groq key: Groq is reachable only with an account's own key.
      GROQ_BASE_URL: ownGroq.baseUrl,
    };
    const a = startProcess("edge-a", "apps/edge/dist/main.js", {
      ...edgeEnv,
      HTTP_PORT: String(port.edgeA),
      EDGE_INSTANCE_ID: uniqueName("edge-a"),
    });
    const b = startProcess("edge-b", "apps/edge/dist/main.js", {
      ...edgeEnv,
      HTTP_PORT: String(port.edgeB),
      EDGE_INSTANCE_ID: uniqueName("edge-b"),
    });
    apps.push(a, b);
    edgeA = `http://127.0.0.1:${port.edgeA}`;
    edgeB = `http://127.0.0.1:${port.edgeB}`;
    await Promise.all([waitForHttp(`${edgeA}/readyz`, a), waitForHttp(`${edgeB}/readyz`, b)]);

    const created = JSON.parse(
      await runCli("apps/standalone/dist/cli/main.js", ["accounts", "create", "--name", "fleet", "--json"], {
        DATABASE_URL: database.url,
      }),
    ) as { account_id: string; management_key: string };
    accountId = created.account_id;
    managementKey = created.management_key;

    // The edges' consumer groups join asynchronously after /readyz; wait until edge B demonstrably
    // receives key changes before measuring anything.
    const probe = await createKey({ name: "warm-up" });
    expect((await models(edgeB, probe.key)).status).toBe(200);
    await patchKey(probe.hash, { disabled: true });
    await eventually(
      async () => ((await models(edgeB, probe.key)).status === 401 ? true : undefined),
      60_000,
    );
  }, 240_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await upstream?.close();
    await ownGroq?.close();
    await database?.drop();
    console.log(`key propagation to the other edge (ms): ${JSON.stringify(measured)}`);
  });

  const api = (base: string, path: string, key: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    });
  const models = (base: string, key: string) => api(base, "/v1/models", key);

  async function createKey(body: Record<string, unknown>): Promise<{ key: string; hash: string }> {
    const response = await api(edgeA, "/api/v1/keys", managementKey, {
      method: "POST",
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as { key: string; data: { hash: string } };
    return { key: created.key, hash: created.data.hash };
  }

  async function patchKey(hash: string, body: Record<string, unknown>): Promise<void> {
    const response = await api(edgeA, `/api/v1/keys/${hash}`, managementKey, {
      method: "PATCH",
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
  }

  async function errorCode(response: Response): Promise<string | undefined> {
    return ((await response.json()) as { error?: { metadata?: { reason?: string } } }).error?.metadata
      ?.reason;
  }

  /** Polls edge B as fast as it answers until `done`; the time since the change was acknowledged. */
  async function timeUntil(key: string, done: (status: number) => boolean, since: number): Promise<number> {
    const deadline = since + 10_000;
    for (;;) {
      const response = await models(edgeB, key);
      await response.arrayBuffer();
      if (done(response.status)) return performance.now() - since;
      if (performance.now() > deadline) throw new Error("edge B never saw the change");
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  it("disable stops the key on the serving edge at once and on the other edge within a second", async () => {
    for (let round = 0; round < 5; round++) {
      const { key, hash } = await createKey({ name: `disable ${round}` });
      // Both edges cache the principal first, so only the event (or the hook) can change their answer.
      expect((await models(edgeA, key)).status).toBe(200);
      expect((await models(edgeB, key)).status).toBe(200);
      await patchKey(hash, { disabled: true });
      const acknowledged = performance.now();
      const sameEdge = await models(edgeA, key);
      expect(sameEdge.status).toBe(401);
      expect(await errorCode(sameEdge)).toBe("key_disabled");
      const elapsed = await timeUntil(key, (status) => status === 401, acknowledged);
      measured.disable?.push(Math.round(elapsed));
      expect(elapsed).toBeLessThan(PROPAGATION_BOUND_MS);

      await patchKey(hash, { disabled: false });
      const restored = performance.now();
      expect((await models(edgeA, key)).status).toBe(200);
      const back = await timeUntil(key, (status) => status === 200, restored);
      measured.enable?.push(Math.round(back));
      expect(back).toBeLessThan(PROPAGATION_BOUND_MS);
    }
  }, 120_000);

  it("delete invalidates the key at once and for good, on both edges", async () => {
    for (let round = 0; round < 3; round++) {
      const { key, hash } = await createKey({ name: `delete ${round}` });
      expect((await models(edgeA, key)).status).toBe(200);
      expect((await models(edgeB, key)).status).toBe(200);
      const response = await api(edgeA, `/api/v1/keys/${hash}`, managementKey, { method: "DELETE" });
      expect(await response.json()).toEqual({ deleted: true, data: { deleted: true } });
      const acknowledged = performance.now();
      const sameEdge = await models(edgeA, key);
      expect([sameEdge.status, await errorCode(sameEdge)]).toEqual([401, "key_not_found"]);
      const elapsed = await timeUntil(key, (status) => status === 401, acknowledged);
      measured.delete?.push(Math.round(elapsed));
      expect(elapsed).toBeLessThan(PROPAGATION_BOUND_MS);
      const again = await api(edgeA, `/api/v1/keys/${hash}`, managementKey, { method: "DELETE" });
      expect(again.status).toBe(404);
      const revived = await api(edgeA, `/api/v1/keys/${hash}`, managementKey, {
        method: "PATCH",
        body: JSON.stringify({ disabled: false }),
      });
      expect(revived.status).toBe(404);
      expect((await models(edgeB, key)).status).toBe(401);
    }
  }, 60_000);

  it("expiry bites at expires_at on every edge, without waiting for a cache entry to lapse", async () => {
    const expiresAt = new Date(Date.now() + 3_000);
    const { key } = await createKey({ name: "short-lived", expires_at: expiresAt.toISOString() });
    expect((await models(edgeA, key)).status).toBe(200);
    expect((await models(edgeB, key)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 20));
    for (const edge of [edgeA, edgeB]) {
      const response = await models(edge, key);
      expect([response.status, await errorCode(response)]).toEqual([401, "key_expired"]);
    }
  }, 30_000);

  it("a PATCHed expiry reaches every edge: a new one bites when it passes, a removed one no longer does", async () => {
    const refusedAsExpired = async (edge: string, key: string) => {
      const response = await models(edge, key);
      return [response.status, await errorCode(response)];
    };
    const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, at - Date.now()));

    // A key with no expiry, cached by both edges, is given one ~2 s away: after it, both refuse the key,
    // although their cached principal (5 s TTL) had no expiry. Only the key-change event can do that.
    const { key, hash } = await createKey({ name: "expiry set by PATCH" });
    expect((await models(edgeA, key)).status).toBe(200);
    expect((await models(edgeB, key)).status).toBe(200);
    const expiresAt = Date.now() + 2_000;
    await patchKey(hash, { expires_at: new Date(expiresAt).toISOString() });
    expect((await models(edgeA, key)).status).toBe(200);
    await sleepUntil(expiresAt + 20);
    for (const edge of [edgeA, edgeB])
      expect(await refusedAsExpired(edge, key)).toEqual([401, "key_expired"]);

    // Removing the expiry of that expired key brings it back: at once on edge A, within a second on B.
    await patchKey(hash, { expires_at: null });
    const revived = performance.now();
    expect((await models(edgeA, key)).status).toBe(200);
    const back = await timeUntil(key, (status) => status === 200, revived);
    measured.expiry?.push(Math.round(back));
    expect(back).toBeLessThan(PROPAGATION_BOUND_MS);

    // A key cached with an expiry ~2.5 s away has it removed: past that time both edges still serve it,
    // although their cached principal carried the old expiry.
    const oldExpiry = Date.now() + 2_500;
    const second = await createKey({
      name: "expiry removed by PATCH",
      expires_at: new Date(oldExpiry).toISOString(),
    });
    expect((await models(edgeA, second.key)).status).toBe(200);
    expect((await models(edgeB, second.key)).status).toBe(200);
    await patchKey(second.hash, { expires_at: null });
    await sleepUntil(oldExpiry + 50);
    for (const edge of [edgeA, edgeB]) expect((await models(edge, second.key)).status).toBe(200);
  }, 30_000);

  it("BYOK: the account's own Groq key, stored through the edge, serves the call, is reported and billed as BYOK", async () => {
    // A key whose limit counts BYOK spend: the provider's price must reach it once, credits nothing.
    const { key } = await createKey({ name: "byok user", limit: 1, include_byok_in_limit: true });
    await runCli(
      "apps/standalone/dist/cli/main.js",
      ["credits", "add", "--account", accountId, "--amount", "5"],
      {
        DATABASE_URL: database.url,
      },
    );
    const model = "meta-llama/llama-3.3-70b-instruct";
    const chat = (base: string) =>
      api(base, "/v1/chat/completions", key, {
        method: "POST",
        body: JSON.stringify({ model, messages: [{ role: "user", content: "own key" }] }),
      });
    expect((await chat(edgeA)).status).toBe(503);

    const stored = await api(edgeA, "/api/v1/byok", managementKey, {
      method: "POST",
      body: JSON.stringify({ provider: "groq", key: OWN_GROQ_KEY }),
    });
    expect(stored.status).toBe(201);
    const credential = ((await stored.json()) as { data: { id: string; label: string } }).data;
    expect(credential.label).toBe("gsk...6789");
    const listed = await (await api(edgeB, "/api/v1/byok", managementKey)).text();
    expect(listed).not.toContain(OWN_GROQ_KEY);

    // Edge B had cached "no BYOK keys" for the account; the byok_changed event clears that.
    let last = "";
    const served = await eventually(async () => {
      const response = await chat(edgeB);
      if (response.status !== 200) last = `${response.status} ${await response.text()}`;
      return response.status === 200 ? response : undefined;
    }, 5_000).catch((error: unknown) => {
      throw new Error(`edge B never served the BYOK call; last answer: ${last}`, { cause: error });
    });
    const body = (await served.json()) as {
      id: string;
      usage: { is_byok: boolean; cost: number; cost_details: { upstream_inference_cost: number } };
    };
    expect(body.usage.is_byok).toBe(true);
    // BYOK_FEE_PERCENT is 0 (the default): nothing charged, the provider's price reported upstream.
    const upstream = body.usage.cost_details.upstream_inference_cost;
    expect(upstream).toBeGreaterThan(0);
    expect(body.usage.cost).toBe(0);
    expect(ownGroq.requests().at(-1)?.headers.authorization).toBe(`Bearer ${OWN_GROQ_KEY}`);
    const generation = await eventually(async () => {
      const lookup = await api(edgeA, `/api/v1/generation?id=${body.id}`, key);
      return lookup.status === 200
        ? ((await lookup.json()) as { data: { usage: { is_byok: boolean } } })
        : undefined;
    });
    expect(generation.data.usage.is_byok).toBe(true);
    // Through Kafka to billing: byok_usage has the price once, usage and the credits nothing, and the
    // limit's remainder counts the price once (include_byok_in_limit).
    const keyInfo = await eventually(async () => {
      const info = (await (await api(edgeB, "/v1/key", key)).json()) as {
        data: { usage: number; byok_usage: number; byok_usage_daily: number; limit_remaining: number };
      };
      return info.data.byok_usage > 0 ? info.data : undefined;
    });
    expect(keyInfo.byok_usage).toBeCloseTo(upstream, 15);
    expect(keyInfo.byok_usage_daily).toBeCloseTo(upstream, 15);
    expect(keyInfo.usage).toBe(0);
    expect(keyInfo.limit_remaining).toBeCloseTo(1 - upstream, 12);
    const credits = (await (await api(edgeA, "/api/v1/credits", managementKey)).json()) as {
      data: { total_usage: number };
    };
    expect(credits.data.total_usage).toBe(0);

    const removed = await api(edgeA, `/api/v1/byok/${credential.id}`, managementKey, { method: "DELETE" });
    expect(removed.status).toBe(200);
    await eventually(async () => ((await chat(edgeB)).status === 503 ? true : undefined), 5_000);
  }, 60_000);

  it("OpenRouter's official SDK manages keys and BYOK keys through the edge unchanged", async () => {
    const sdk = new OpenRouter({ apiKey: managementKey, serverURL: `${edgeA}/api/v1` });
    const expiresAt = new Date(Date.now() + 86_400_000);
    const created = await sdk.apiKeys.create({
      requestBody: { name: "sdk key", limit: 2.5, limitReset: "weekly", expiresAt, includeByokInLimit: true },
    });
    expect(created.key).toMatch(/^lr_live_[0-9a-f]{48}$/);
    expect(created.data).toMatchObject({
      name: "sdk key",
      limit: 2.5,
      limitReset: "weekly",
      disabled: false,
    });
    const hash = created.data.hash;
    expect((await sdk.apiKeys.get({ hash })).data.name).toBe("sdk key");
    const listed = await sdk.apiKeys.list({ includeDisabled: true });
    expect(listed.data.map((key) => key.hash)).toContain(hash);
    const updated = await sdk.apiKeys.update({ hash, requestBody: { name: "renamed", disabled: true } });
    expect(updated.data).toMatchObject({ name: "renamed", disabled: true });
    expect((await models(edgeB, created.key)).status).toBe(401);

    const own = new OpenRouter({
      apiKey: (await createKey({ name: "self" })).key,
      serverURL: `${edgeB}/api/v1`,
    });
    const current = await own.apiKeys.getCurrentKeyMetadata();
    expect(current.data).toMatchObject({ label: expect.stringMatching(/^lr_live_/), isManagementKey: false });

    const byok = await sdk.byok.create({
      createBYOKKeyRequest: { provider: "openai", key: "sk-sdk-own-key-00000001" },
    });
    expect(byok.data).toMatchObject({
      provider: "openai",
      label: "sk-...0001",
      disabled: false,
      sortOrder: 0,
    });
    expect((await sdk.byok.get({ id: byok.data.id })).data.id).toBe(byok.data.id);
    const page = await sdk.byok.list();
    expect(page.result.data.map((entry) => entry.id)).toContain(byok.data.id);
    const switched = await sdk.byok.update({ id: byok.data.id, updateBYOKKeyRequest: { disabled: true } });
    expect(switched.data.disabled).toBe(true);
    expect((await sdk.byok.delete({ id: byok.data.id })).deleted).toBe(true);

    expect((await sdk.apiKeys.delete({ hash })).deleted).toBe(true);
    const gone = await api(edgeA, `/api/v1/keys/${hash}`, managementKey);
    expect(gone.status).toBe(404);
  }, 60_000);

  it("the operator's account scope bounds the keys made through the edge, existing ones at once", async () => {
    const { key: existing } = await createKey({ name: "before the scope" });
    const modelIds = async () =>
      ((await (await models(edgeB, existing)).json()) as { data: Array<{ id: string }> }).data.map(
        (m) => m.id,
      );
    expect((await modelIds()).length).toBeGreaterThan(1);
    await runCli(
      "apps/standalone/dist/cli/main.js",
      [
        "accounts",
        "scope",
        "--account",
        accountId,
        "--providers",
        "openai",
        "--models",
        "openai/gpt-4o-mini",
        "--json",
      ],
      cliEnv,
    );
    // The CLI announced every key of the account on the broker: edge B narrows its cached principal.
    const changed = performance.now();
    await eventually(
      async () => ((await modelIds()).join() === "openai/gpt-4o-mini" ? true : undefined),
      5_000,
    );
    const elapsed = performance.now() - changed;
    measured.scope?.push(Math.round(elapsed));
    expect(elapsed).toBeLessThan(PROPAGATION_BOUND_MS);
    const refused = await api(edgeA, "/api/v1/keys", managementKey, {
      method: "POST",
      body: JSON.stringify({ name: "too wide", allowed_providers: ["openai", "groq"] }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      error: {
        type: "permission_error",
        message: "allowed_providers: outside this account's scope: provider groq",
      },
    });
    const { key } = await createKey({ name: "in scope" });
    const listed = (await (await models(edgeB, key)).json()) as { data: Array<{ id: string }> };
    expect(listed.data.length).toBeGreaterThan(0);
  }, 30_000);
});
