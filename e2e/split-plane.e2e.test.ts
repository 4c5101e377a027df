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
import OpenAI from "openai";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage, generateSiweNonce } from "viem/siwe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type AppProcess, eventually, freshTopics, runCli, startProcess, waitForHttp } from "./processes.js";

// The walking skeleton as production runs it: keys, billing, generations and edge as four OS
// processes on real PostgreSQL, Redis and Kafka, with a fake OpenAI upstream (the only fake).

describeWith(["postgres", "redis", "kafka"], "split plane end to end", () => {
  const apps: AppProcess[] = [];
  let database: TestDatabase;
  let upstream: FakeServer;
  let edgeUrl: string;
  let managementKey: string;
  let accountId: string;
  let apiKey: string;
  let env: Record<string, string>;
  let topicEnv: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    upstream = await startFakeOpenAi({ host: "127.0.0.1", port: 0, requireKey: "sk-upstream-test" });
    const brokers = kafkaBrokers();
    const topics = await freshTopics("e2e", brokers);
    topicEnv = { ...topics };
    const ports = {
      keysHttp: await freePort(),
      keysGrpc: await freePort(),
      billingHttp: await freePort(),
      billingGrpc: await freePort(),
      generationsHttp: await freePort(),
      generationsGrpc: await freePort(),
      edge: await freePort(),
    };
    env = {
      ...topics,
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DATABASE_URL: database.url,
      REDIS_URL: serviceUrl("redis"),
      REDIS_KEY_PREFIX: uniqueName("e2e"),
      KAFKA_BROKERS: brokers.join(","),
      KEYS_GRPC_ADDRESS: `127.0.0.1:${ports.keysGrpc}`,
      BILLING_GRPC_ADDRESS: `127.0.0.1:${ports.billingGrpc}`,
      GENERATIONS_GRPC_ADDRESS: `127.0.0.1:${ports.generationsGrpc}`,
      // Wallet sign-in: keys signs JWTs, the edge, billing and generations verify them with the same secret.
      WALLET_JWT_SECRET: randomBytes(32).toString("hex"),
      PUBLIC_BASE_URL: `http://127.0.0.1:${ports.edge}`,
    };
    const keys = startProcess("keys", "apps/keys/dist/main.js", {
      ...env,
      HTTP_PORT: String(ports.keysHttp),
      GRPC_PORT: String(ports.keysGrpc),
    });
    const billing = startProcess("billing", "apps/billing/dist/main.js", {
      ...env,
      HTTP_PORT: String(ports.billingHttp),
      GRPC_PORT: String(ports.billingGrpc),
    });
    const generations = startProcess("generations", "apps/generations/dist/main.js", {
      ...env,
      HTTP_PORT: String(ports.generationsHttp),
      GRPC_PORT: String(ports.generationsGrpc),
    });
    apps.push(keys, billing, generations);
    await Promise.all([
      waitForHttp(`http://127.0.0.1:${ports.keysHttp}/healthz`, keys),
      waitForHttp(`http://127.0.0.1:${ports.billingHttp}/healthz`, billing),
      waitForHttp(`http://127.0.0.1:${ports.generationsHttp}/healthz`, generations),
    ]);
    const edge = startProcess("edge", "apps/edge/dist/main.js", {
      ...env,
      HTTP_PORT: String(ports.edge),
      KEYS_HTTP_URL: `http://127.0.0.1:${ports.keysHttp}`,
      BILLING_HTTP_URL: `http://127.0.0.1:${ports.billingHttp}`,
      GENERATIONS_HTTP_URL: `http://127.0.0.1:${ports.generationsHttp}`,
      OPENAI_API_KEY: "sk-upstream-test",
      OPENAI_BASE_URL: upstream.baseUrl,
    });
    apps.push(edge);
    edgeUrl = `http://127.0.0.1:${ports.edge}`;
    await waitForHttp(`${edgeUrl}/readyz`, edge);

    const created = JSON.parse(
      await runCli(
        "apps/standalone/dist/cli/main.js",
        ["accounts", "create", "--name", "e2e", "--credits", "5", "--json"],
        { DATABASE_URL: database.url },
      ),
    ) as { account_id: string; management_key: string };
    accountId = created.account_id;
    managementKey = created.management_key;
  }, 180_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await upstream?.close();
    await database?.drop();
  });

  const api = (path: string, init: RequestInit & { key?: string } = {}) =>
    fetch(`${edgeUrl}${path}`, {
      ...init,
      headers: {
        "content-type": "application/json",
        ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
        ...(init.headers as Record<string, string> | undefined),
      },
    });

  it("the operator CLI's management key creates an API key through the edge", async () => {
    expect(accountId).toMatch(/^acct_/);
    expect(managementKey).toMatch(/^lr_mgmt_[0-9a-f]{48}$/);
    const response = await api("/api/v1/keys", {
      method: "POST",
      key: managementKey,
      body: JSON.stringify({ name: "e2e key" }),
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { key: string; data: { name: string; workspace_id: string } };
    expect(body.key).toMatch(/^lr_live_[0-9a-f]{48}$/);
    expect(body.data).toMatchObject({ name: "e2e key", workspace_id: accountId });
    apiKey = body.key;
  });

  it("serves a chat completion through the openai SDK, metered and recorded", async () => {
    const client = new OpenAI({ apiKey, baseURL: `${edgeUrl}/v1` });
    const { data: completion, response } = await client.chat.completions
      .create({
        model: "openai/gpt-4o-mini",
        messages: [{ role: "user", content: "Say hello to the gateway" }],
      })
      .withResponse();
    const generationId = response.headers.get("x-generation-id");
    expect(generationId).toMatch(/^gen-/);
    expect(completion.id).toBe(generationId);
    expect(completion.choices[0]?.message.content).toContain("Say hello to the gateway");
    const usage = completion.usage as OpenAI.CompletionUsage & { cost: number };
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    // gpt-4o-mini list prices: 0.15 USD / 1M prompt tokens, 0.60 USD / 1M completion tokens.
    const expectedCost = (usage.prompt_tokens * 150_000 + usage.completion_tokens * 600_000) / 1e12;
    expect(usage.cost).toBeCloseTo(expectedCost, 15);

    // The upstream got the provider credential from the gateway, never the caller's key.
    const upstreamCall = upstream.requests().at(-1);
    expect(upstreamCall?.headers.authorization).toBe("Bearer sk-upstream-test");

    // generations ingests the usage event from Kafka.
    const generation = await eventually(async () => {
      const lookup = await api(`/api/v1/generation?id=${generationId}`, { key: apiKey });
      return lookup.status === 200
        ? ((await lookup.json()) as { data: Record<string, unknown> }).data
        : undefined;
    });
    expect(generation).toMatchObject({
      id: generationId,
      model: "openai/gpt-4o-mini",
      provider: "openai",
      usage: {
        prompt_tokens: usage.prompt_tokens,
        completion_tokens: usage.completion_tokens,
        total_tokens: usage.total_tokens,
        is_byok: false,
      },
    });
    expect(generation.latency_ms).toEqual(expect.any(Number));
    expect(generation.created_at).toEqual(expect.any(String));
    expect((generation.usage as { cost: number }).cost).toBeCloseTo(expectedCost, 15);

    // billing debits the account from the same event; /v1/key and /api/v1/credits agree.
    const keyInfo = await eventually(async () => {
      const info = (await (await api("/v1/key", { key: apiKey })).json()) as { data: { usage: number } };
      return info.data.usage > 0 ? info.data : undefined;
    });
    expect(keyInfo.usage).toBeCloseTo(expectedCost, 15);
    expect(keyInfo).toMatchObject({ limit: null, is_free_tier: false });
    const credits = (await (await api("/api/v1/credits", { key: managementKey })).json()) as {
      data: { total_credits: number; total_usage: number };
    };
    expect(credits.data.total_credits).toBe(5);
    expect(credits.data.total_usage).toBeCloseTo(expectedCost, 15);
  });

  it("streams a completion ending with a usage chunk", async () => {
    const client = new OpenAI({ apiKey, baseURL: `${edgeUrl}/v1` });
    const stream = await client.chat.completions.create({
      model: "openai/gpt-4o-mini",
      messages: [{ role: "user", content: "stream please" }],
      stream: true,
    });
    let text = "";
    let lastUsage: (OpenAI.CompletionUsage & { cost?: number }) | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      if (chunk.usage) lastUsage = chunk.usage;
    }
    expect(text).toContain("stream please");
    expect(lastUsage?.cost).toBeGreaterThan(0);
  });

  it("answers bad input with the spec's error bodies, never a 500", async () => {
    const noKey = await api("/v1/chat/completions", {
      method: "POST",
      body: JSON.stringify({ model: "openai/gpt-4o-mini", messages: [] }),
    });
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({
      error: expect.objectContaining({
        message: "missing or invalid Authorization header",
        type: "authentication_error",
      }),
    });

    const wrongKey = await api("/v1/chat/completions", {
      method: "POST",
      key: `lr_live_${"0".repeat(48)}`,
      body: JSON.stringify({ model: "openai/gpt-4o-mini", messages: [{ role: "user", content: "x" }] }),
    });
    expect(wrongKey.status).toBe(401);
    expect(await wrongKey.json()).toMatchObject({
      error: { message: "invalid api key", type: "authentication_error" },
    });

    const malformed = await api("/v1/chat/completions", { method: "POST", key: apiKey, body: "{" });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { type: "invalid_request_error" } });

    const missingField = await api("/v1/chat/completions", {
      method: "POST",
      key: apiKey,
      body: JSON.stringify({ messages: [{ role: "user", content: "x" }] }),
    });
    expect(missingField.status).toBe(400);
    expect(((await missingField.json()) as { error: { message: string } }).error.message).toContain("model");

    const unknownModel = await api("/v1/chat/completions", {
      method: "POST",
      key: apiKey,
      body: JSON.stringify({ model: "nobody/nothing", messages: [{ role: "user", content: "x" }] }),
    });
    expect(unknownModel.status).toBe(404);
    expect(await unknownModel.json()).toMatchObject({ error: { type: "not_found_error" } });
  });

  it("keeps another account out of this account's generation", async () => {
    const other = JSON.parse(
      await runCli("apps/standalone/dist/cli/main.js", ["accounts", "create", "--name", "other", "--json"], {
        DATABASE_URL: database.url,
      }),
    ) as { management_key: string };
    const client = new OpenAI({ apiKey, baseURL: `${edgeUrl}/v1` });
    const completion = await client.chat.completions.create({
      model: "openai/gpt-4o-mini",
      messages: [{ role: "user", content: "private" }],
    });
    await eventually(async () => {
      const lookup = await api(`/api/v1/generation?id=${completion.id}`, { key: apiKey });
      return lookup.status === 200 ? true : undefined;
    });
    const foreign = await api(`/api/v1/generation?id=${completion.id}`, { key: other.management_key });
    expect(foreign.status).toBe(404);
  });
  it("signs a wallet in through the edge; its JWT is served after a top-up, reads its generation, and is refused once revoked", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const message = createSiweMessage({
      domain: new URL(edgeUrl).host,
      address: wallet.address,
      uri: `${edgeUrl}/v1/x402/auth`,
      version: "1",
      chainId: 8453,
      nonce: generateSiweNonce(),
      issuedAt: new Date(),
    });
    const proof = Buffer.from(JSON.stringify({ message, signature: await wallet.signMessage({ message }) }));
    const signIn = await api("/v1/x402/auth", {
      method: "POST",
      headers: { "sign-in-with-x": proof.toString("base64") },
    });
    expect(signIn.status).toBe(200);
    const session = (await signIn.json()) as { jwt: string; tenant_id: string; account_id: string };
    expect(session.account_id).toBe(`eip155:8453:${wallet.address}`);

    await runCli(
      "apps/standalone/dist/cli/main.js",
      ["credits", "add", "--account", session.tenant_id, "--amount", "1"],
      {
        DATABASE_URL: database.url,
      },
    );
    const client = new OpenAI({ apiKey: session.jwt, baseURL: `${edgeUrl}/v1`, maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: "openai/gpt-4o-mini",
      messages: [{ role: "user", content: "Hello from a wallet" }],
    });
    const generation = await eventually(async () => {
      const response = await api(`/api/v1/generation?id=${completion.id}`, { key: session.jwt });
      return response.status === 200 ? ((await response.json()) as { data: { id: string } }).data : undefined;
    });
    expect(generation.id).toBe(completion.id);

    await runCli("apps/standalone/dist/cli/main.js", ["wallets", "revoke", "--account", session.tenant_id], {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: env.KAFKA_BROKERS ?? "",
      ...topicEnv,
    });
    // The key-change event reaches the edge over Kafka: well within the principal cache's bound.
    const refused = await eventually(async () => {
      const response = await api("/v1/key", { key: session.jwt });
      return response.status === 401
        ? ((await response.json()) as { error: { metadata?: { reason?: string } } })
        : undefined;
    });
    expect(refused.error.metadata?.reason).toBe("jwt_revoked");
  });
});
