import { generateKeyPairSync } from "node:crypto";
import { type FakeVertex, startFakeVertex } from "@gw/fake-providers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ProviderSettings } from "../settings.js";
import type { ChatCall, ChatResult, ProviderAdapter, StreamEvent } from "../types.js";
import { vertexProvider } from "./index.js";
import { VertexTokens } from "./token.js";

const TIMEOUTS = { connectMs: 2000, firstByteMs: 5000, totalMs: 10_000 };
const EMAIL = "gateway@test-project.iam.gserviceaccount.com";

function keyPair(): { privateKey: string; publicKey: string } {
  const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    privateKey: pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKey: pair.publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

const known = keyPair();

function keyFile(tokenUri: string, privateKey = known.privateKey, email = EMAIL): string {
  return JSON.stringify({
    type: "service_account",
    project_id: "test-project",
    private_key_id: "k1",
    private_key: privateKey,
    client_email: email,
    token_uri: tokenUri,
  });
}

function call(upstreamModel: string, stream = false, content = "Hello there"): ChatCall {
  return {
    request: { model: "m", messages: [{ role: "user", content }], max_tokens: 64 },
    upstreamModel,
    stream,
    signal: new AbortController().signal,
  };
}

async function collect(result: ChatResult): Promise<StreamEvent[]> {
  if (!result.ok || !result.stream) throw new Error(`expected a stream, got ${JSON.stringify(result)}`);
  const events: StreamEvent[] = [];
  for await (const event of result.events) events.push(event);
  return events;
}

describe("Vertex AI adapter ↔ strict fake", () => {
  let fake: FakeVertex;
  const adapters: ProviderAdapter[] = [];

  function adapter(
    credential: string,
    options: Partial<NonNullable<ProviderSettings["vertex"]>> = {},
  ): ProviderAdapter {
    const settings: ProviderSettings = {
      id: "google-vertex",
      apiFormat: "vertex",
      baseUrl: fake.url,
      apiKey: credential,
      isDemo: false,
      vertex: { project: undefined, location: "us-east5", explicitBase: true, ...options },
    };
    const built = vertexProvider(settings, TIMEOUTS);
    adapters.push(built);
    return built;
  }

  beforeAll(async () => {
    fake = await startFakeVertex({
      serviceAccounts: [{ clientEmail: EMAIL, publicKeyPem: known.publicKey }],
      staticTokens: ["explicit-token-1"],
    });
  });
  afterEach(() => {
    fake.clearRequests();
    fake.resetScenario();
  });
  afterAll(async () => {
    await Promise.all(adapters.map((entry) => entry.close()));
    await fake.close();
  });

  it("serves Claude through rawPredict: model in the URL, vertex anthropic_version in the body", async () => {
    const result = await adapter(keyFile(fake.tokenUri)).chat?.complete(call("claude-sonnet-4@20250514"));
    expect(result?.ok && !result.stream && result.completion.body.choices[0]?.message?.content).toBeTruthy();
    const [logged] = fake.requests(1);
    expect(logged?.path).toBe(
      "/v1/projects/test-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict",
    );
    expect(logged?.body).toMatchObject({ anthropic_version: "vertex-2023-10-16" });
    expect(logged?.body).not.toHaveProperty("model");
  });

  it("streams Claude through streamRawPredict and Gemini through streamGenerateContent?alt=sse", async () => {
    const vertex = adapter(keyFile(fake.tokenUri));
    const claude = await collect(
      (await vertex.chat?.complete(call("claude-haiku-4-5@20251001", true))) as ChatResult,
    );
    expect(claude.some((event) => event.type === "chunk")).toBe(true);
    expect(claude.at(-1)?.type).toBe("usage");
    const gemini = await collect((await vertex.chat?.complete(call("gemini-2.5-flash", true))) as ChatResult);
    expect(gemini.some((event) => event.type === "chunk")).toBe(true);
    expect(fake.requests(1)[0]?.path).toBe(
      "/v1/projects/test-project/locations/us-east5/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    );
  });

  it("places an endpoint named by its full resource in that resource's project and location", async () => {
    const result = await adapter(keyFile(fake.tokenUri)).chat?.complete(
      call("projects/test-project/locations/europe-west1/publishers/google/models/gemini-2.5-pro"),
    );
    expect(result?.ok).toBe(true);
    expect(fake.requests(1)[0]?.path).toContain(
      "/locations/europe-west1/publishers/google/models/gemini-2.5-pro:generateContent",
    );
  });

  it("sends the web plugin's native search to Gemini as Google Search grounding, read back as citations and searches", async () => {
    const vertex = adapter(keyFile(fake.tokenUri));
    const webSearch = { maxUses: 5, includeDomains: undefined, excludeDomains: undefined };
    const result = await vertex.chat?.complete({ ...call("gemini-2.5-flash"), webSearch });
    if (!result?.ok || result.stream) throw new Error(`expected a completion, got ${JSON.stringify(result)}`);
    expect(fake.requests(1)[0]?.body).toMatchObject({ tools: [{ googleSearch: {} }] });
    const message = result.completion.body.choices[0]?.message as { annotations?: unknown[] } | undefined;
    expect(message?.annotations).toContainEqual(
      expect.objectContaining({
        type: "url_citation",
        url_citation: expect.objectContaining({ title: "search-1.example.com" }),
      }),
    );
    expect(result.completion.usage?.webSearches).toBe(1);
    const streamed = await collect(
      (await vertex.chat?.complete({ ...call("gemini-2.5-flash", true), webSearch })) as ChatResult,
    );
    expect(fake.requests(1)[0]?.body).toMatchObject({ tools: [{ googleSearch: {} }] });
    const usage = streamed.find((event) => event.type === "usage");
    expect(usage?.type === "usage" && usage.usage.webSearches).toBe(1);
    // Without the plugin, no tool: a search is never run (nor billed) unasked.
    await vertex.chat?.complete(call("gemini-2.5-flash"));
    expect(fake.requests(1)[0]?.body).not.toHaveProperty("tools");
  });

  it("has native search on its Gemini models only, priced by the model's own name", () => {
    const search = adapter(keyFile(fake.tokenUri)).nativeWebSearch;
    if (typeof search !== "function") throw new Error("expected a per-model native search");
    expect(search("gemini-2.5-flash")).toEqual({ format: "gemini", model: "gemini-2.5-flash" });
    expect(search("projects/test-project/locations/global/publishers/google/models/gemini-3-pro")).toEqual({
      format: "gemini",
      model: "gemini-3-pro",
    });
    // Claude on Vertex is sent no search tool, so none is offered (nor a malformed name).
    expect(search("claude-sonnet-4@20250514")).toBeUndefined();
    expect(
      search("projects/test-project/locations/global/publishers/anthropic/models/claude-x"),
    ).toBeUndefined();
    expect(search("not a model")).toBeUndefined();
  });

  it("exchanges one token for many calls, concurrent ones included", async () => {
    const vertex = adapter(keyFile(fake.tokenUri));
    const before = fake.tokensIssued();
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => vertex.chat?.complete(call("gemini-2.5-flash"))),
    );
    expect(results.every((result) => result?.ok)).toBe(true);
    await vertex.chat?.complete(call("gemini-2.5-flash"));
    expect(fake.tokensIssued() - before).toBe(1);
  });

  it("refuses a request without a token with Google's 401 UNAUTHENTICATED", async () => {
    const response = await fetch(
      `${fake.url}/v1/projects/test-project/locations/us-east5/publishers/google/models/gemini-2.5-flash:generateContent`,
      { method: "POST", headers: { "content-type": "application/json" }, body: "{}" },
    );
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error: { status: string; message: string } };
    expect(body.error.status).toBe("UNAUTHENTICATED");
    expect(body.error.message).toContain("missing required authentication credential");
  });

  it("refuses an expired token (401, retryable) and exchanges a new one for the next call", async () => {
    const vertex = adapter(keyFile(fake.tokenUri));
    expect((await vertex.chat?.complete(call("gemini-2.5-flash")))?.ok).toBe(true);
    fake.expireTokens();
    const refused = await vertex.chat?.complete(call("gemini-2.5-flash"));
    expect(refused?.ok).toBe(false);
    if (refused?.ok === false) {
      expect(refused.failure.status).toBe(401);
      expect(refused.failure.retryable).toBe(true);
      expect(refused.failure.message).toContain("invalid authentication credentials");
    }
    const before = fake.tokensIssued();
    expect((await vertex.chat?.complete(call("gemini-2.5-flash")))?.ok).toBe(true);
    expect(fake.tokensIssued()).toBe(before + 1);
  });

  it("is refused a token for an assertion signed with another key", async () => {
    const other = keyPair();
    const result = await adapter(keyFile(fake.tokenUri, other.privateKey)).chat?.complete(
      call("gemini-2.5-flash"),
    );
    expect(result?.ok).toBe(false);
    if (result?.ok === false) {
      expect(result.failure.code).toBe("token_exchange_failed");
      expect(result.failure.message).toContain("Invalid JWT Signature");
      expect(result.failure.retryable).toBe(true);
    }
  });

  it("sends an explicit token as it is, and the fake refuses an unknown one", async () => {
    expect(
      (
        await adapter("explicit-token-1", { project: "test-project" }).chat?.complete(
          call("gemini-2.5-flash"),
        )
      )?.ok,
    ).toBe(true);
    const refused = await adapter("ya29.not-issued", { project: "test-project" }).chat?.complete(
      call("gemini-2.5-flash"),
    );
    expect(refused?.ok === false && refused.failure.status).toBe(401);
  });

  it("maps Vertex's 429 and 503 to retryable failures, so the plan fails over", async () => {
    const vertex = adapter(keyFile(fake.tokenUri));
    for (const status of [429, 503]) {
      fake.setScenario({ name: "fail", status, times: 1 });
      const result = await vertex.chat?.complete(call("claude-sonnet-4@20250514"));
      expect(result?.ok === false && result.failure).toMatchObject({ status, retryable: true });
    }
  });

  it("is told of a project the credential may not use (403) and of a model Vertex does not serve (404)", async () => {
    const vertex = adapter(keyFile(fake.tokenUri), { project: "other-project" });
    const denied = await vertex.chat?.complete(call("gemini-2.5-flash"));
    expect(denied?.ok === false && denied.failure.status).toBe(403);
    const missing = await adapter(keyFile(fake.tokenUri)).chat?.complete(call("gemini-0-nonexistent"));
    expect(missing?.ok === false && missing.failure.status).toBe(404);
  });
});

describe("VertexTokens", () => {
  let fake: FakeVertex;
  beforeAll(async () => {
    fake = await startFakeVertex({
      serviceAccounts: [{ clientEmail: EMAIL, publicKeyPem: known.publicKey }],
      tokenLifetimeSeconds: 3600,
    });
  });
  afterAll(() => fake.close());

  it("renews a token five minutes before it expires, not per call", async () => {
    let now = Date.now();
    const tokens = new VertexTokens(
      {
        kind: "service-account",
        account: {
          clientEmail: EMAIL,
          privateKey: known.privateKey,
          privateKeyId: undefined,
          tokenUri: fake.tokenUri,
          projectId: undefined,
        },
      },
      TIMEOUTS,
      () => now,
    );
    const first = await tokens.get();
    now += 54 * 60_000; // 54 minutes: still 6 minutes of life, kept
    expect(await tokens.get()).toBe(first);
    now += 2 * 60_000; // 56 minutes: inside the 5-minute margin, renewed
    const second = await tokens.get();
    expect(typeof second).toBe("string");
    expect(second).not.toBe(first);
    expect(fake.tokensIssued()).toBe(2);
    await tokens.close();
  });
});
