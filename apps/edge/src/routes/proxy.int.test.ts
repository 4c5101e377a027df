import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import { RefusalCode } from "@gw/proto/billing/v1/billing";
import type { ProviderCredential } from "@gw/proto/keys/v1/keys";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { refusal } from "../test/billing.js";
import { BYOK_FAKE_KEY, type EdgeHarness, FAKE_KEY, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";
import { usageEventFor } from "../test/usage.js";

const key = testKey("acct-proxy");
const openaiOnly = testKey("acct-proxy", { allowedProviders: { values: ["openai"] } });
const miniOnly = testKey("acct-proxy", { allowedModels: { values: ["openai/gpt-4o-mini"] } });
const management = testKey("acct-proxy", { management: true });
const byokKey = testKey("acct-proxy-byok");
// The BYOK account brings its own openai key, distinct from the gateway's (the fake accepts both).
const credentials = new Map<string, ProviderCredential[]>([
  ["acct-proxy-byok", [{ id: "byok_o", providerId: "openai", apiKey: BYOK_FAKE_KEY, position: 0 }]],
]);
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({
    keys: [key, openaiOnly, miniOnly, management, byokKey],
    credentials,
    env: {
      BODY_LIMIT: "64kb",
      PROXY_DEFAULT_HOLD_USD: "0.25",
      // A configured provider nobody answers for: the connection is refused.
      MISTRAL_API_KEY: FAKE_KEY,
      MISTRAL_BASE_URL: "http://127.0.0.1:9/v1",
    },
  });
});

afterAll(async () => {
  await edge?.stop();
});

beforeEach(() => {
  edge.billing.refusal = undefined;
  for (const fake of [edge.primary, edge.anthropic, edge.gemini]) fake.clearRequests();
});

const chat = { model: "gpt-4o-mini", messages: [{ role: "user" as const, content: "hello proxy" }] };

function post(path: string, body: unknown, secret = key.secret, headers: Record<string, string> = {}) {
  return fetch(`${edge.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** The provider saw the gateway's key and no trace of the caller's. */
function expectGatewayCredential(headers: Record<string, string>, name: string, value: string): void {
  expect(headers[name]).toBe(value);
  expect(JSON.stringify(headers)).not.toContain(key.secret);
}

describe("POST /{provider}/{path}: native calls through the proxy", () => {
  it("OpenAI (openai SDK): passes the native completion through, metered as proxy at catalogue prices", async () => {
    const openai = new OpenAI({ apiKey: key.secret, baseURL: `${edge.url}/openai/v1`, maxRetries: 0 });
    const { data, response } = await openai.chat.completions.create(chat).withResponse();
    expect(data.choices[0]?.message.content).toBe("Echo: hello proxy");
    expect(data.model).toBe("gpt-4o-mini");
    const [received] = edge.primary.requests();
    expect(received?.path).toBe("/v1/chat/completions");
    expectGatewayCredential(received?.headers ?? {}, "authorization", `Bearer ${FAKE_KEY}`);
    const event = await usageEventFor(edge, response.headers.get("x-generation-id") ?? "");
    expect(event).toMatchObject({
      apiType: "proxy",
      provider: "openai",
      model: "openai/gpt-4o-mini",
      streamed: false,
      estimated: false,
      promptTokens: data.usage?.prompt_tokens,
      completionTokens: data.usage?.completion_tokens,
    });
    const expected =
      BigInt(data.usage?.prompt_tokens ?? 0) * 150_000n +
      BigInt(data.usage?.completion_tokens ?? 0) * 600_000n;
    expect(event.costPico).toBe(expected);
    expect(edge.billing.admits.at(-1)?.holdId).toBe(event.generationId);
    await expect
      .poll(() => edge.billing.settles.find((s) => s.holdId === event.generationId)?.actualCostPico)
      .toBe(expected);
  });

  it("OpenAI streaming: SSE relayed untouched, usage requested and metered", async () => {
    const openai = new OpenAI({ apiKey: key.secret, baseURL: `${edge.url}/openai/v1`, maxRetries: 0 });
    const { data: stream, response } = await openai.chat.completions
      .create({ ...chat, stream: true })
      .withResponse();
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe("Echo: hello proxy");
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(edge.primary.requests()[0]?.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    const event = await usageEventFor(edge, response.headers.get("x-generation-id") ?? "");
    expect(event).toMatchObject({ apiType: "proxy", streamed: true, estimated: false });
    expect(event.promptTokens).toBeGreaterThan(0);
    expect(event.completionTokens).toBeGreaterThan(0);
    expect(event.costPico).toBeGreaterThan(0n);
  });

  it("Anthropic (@anthropic-ai/sdk): Messages plain and streamed, x-api-key replaced by the gateway's", async () => {
    const anthropic = new Anthropic({ apiKey: key.secret, baseURL: `${edge.url}/anthropic`, maxRetries: 0 });
    const params = {
      model: "claude-test",
      max_tokens: 64,
      messages: [{ role: "user" as const, content: "hi claude" }],
    };
    const { data, response } = await anthropic.messages.create(params).withResponse();
    expect(data.content[0]).toMatchObject({ type: "text", text: "Echo: hi claude" });
    expectGatewayCredential(edge.anthropic.requests()[0]?.headers ?? {}, "x-api-key", FAKE_KEY);
    const plain = await usageEventFor(edge, response.headers.get("x-generation-id") ?? "");
    expect(plain).toMatchObject({
      apiType: "proxy",
      provider: "anthropic",
      model: "anthropic/claude-test",
      promptTokens: data.usage.input_tokens,
      completionTokens: data.usage.output_tokens,
    });
    const streamed = anthropic.messages.stream(params);
    const final = await streamed.finalMessage();
    const id = (await streamed.withResponse()).response.headers.get("x-generation-id") ?? "";
    const event = await usageEventFor(edge, id);
    expect(event).toMatchObject({
      streamed: true,
      estimated: false,
      promptTokens: final.usage.input_tokens,
      completionTokens: final.usage.output_tokens,
    });
  });

  it("Gemini (@google/genai): model from the path, ?key= and x-goog-api-key never forwarded, streamed too", async () => {
    const genai = new GoogleGenAI({ apiKey: key.secret, httpOptions: { baseUrl: `${edge.url}/google` } });
    const reply = await genai.models.generateContent({ model: "gemini-2.5-flash", contents: "hi gemini" });
    expect(reply.text).toBe("Echo: hi gemini");
    expectGatewayCredential(edge.gemini.requests()[0]?.headers ?? {}, "x-goog-api-key", FAKE_KEY);
    let text = "";
    for await (const chunk of await genai.models.generateContentStream({
      model: "gemini-2.5-flash",
      contents: "again",
    }))
      text += chunk.text ?? "";
    expect(text).toBe("Echo: again");
    const viaQuery = await fetch(
      `${edge.url}/google/v1beta/models/gemini-2.5-flash:generateContent?key=${key.secret}`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ contents: [{ parts: [{ text: "by query" }] }] }),
      },
    );
    expect(viaQuery.status).toBe(200);
    const last = edge.gemini.requests().at(-1);
    expect(last?.path).toBe("/v1beta/models/gemini-2.5-flash:generateContent");
    const event = await usageEventFor(edge, viaQuery.headers.get("x-generation-id") ?? "");
    expect(event).toMatchObject({
      apiType: "proxy",
      provider: "google",
      model: "google/gemini-test",
      estimated: false,
    });
    expect(event.promptTokens).toBeGreaterThan(0);
    // Streamed (alt=sse): usageMetadata read from the frames as they pass.
    const sse = await post("/google/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", {
      contents: [{ parts: [{ text: "stream me" }] }],
    });
    await sse.text();
    const streamed = await usageEventFor(edge, sse.headers.get("x-generation-id") ?? "");
    expect(streamed).toMatchObject({ streamed: true, estimated: false, model: "google/gemini-test" });
    expect(streamed.completionTokens).toBeGreaterThan(0);
  });

  it("relays each SSE frame as it arrives (no buffering) and meters a client that leaves as cancelled", async () => {
    const before = edge.primary.disconnects();
    const response = await post("/openai/v1/chat/completions", { ...chat, stream: true }, key.secret, {
      "x-fake-scenario": "slow-stream;ms=2000",
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("data: ");
    await reader.cancel();
    // The upstream was still streaming (2 s between frames) when the client had its first frame and
    // left: a relay that buffered the stream would have let the upstream finish first.
    await expect.poll(() => edge.primary.disconnects(), { timeout: 5_000 }).toBe(before + 1);
    const event = await usageEventFor(edge, response.headers.get("x-generation-id") ?? "");
    expect(event).toMatchObject({ apiType: "proxy", streamed: true, cancelled: true });
  });

  it("calls with the account's own key first (BYOK) and reports is_byok", async () => {
    const response = await post("/openai/v1/chat/completions", chat, byokKey.secret);
    expect(response.status).toBe(200);
    const headers = edge.primary.requests()[0]?.headers ?? {};
    // The account's own key went upstream, not the gateway's, and not the caller's gateway key.
    expect(headers.authorization).toBe(`Bearer ${BYOK_FAKE_KEY}`);
    expect(JSON.stringify(headers)).not.toContain(FAKE_KEY);
    expect(JSON.stringify(headers)).not.toContain(byokKey.secret);
    const event = await usageEventFor(edge, response.headers.get("x-generation-id") ?? "");
    expect(event).toMatchObject({ apiType: "proxy", isByok: true });
  });

  it("GET forwards read-only native endpoints (the provider's model list)", async () => {
    const response = await fetch(`${edge.url}/openai/v1/models`, {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { object: string }).object).toBe("list");
    expect(edge.primary.requests()[0]).toMatchObject({ method: "GET", path: "/v1/models" });
  });

  it("refuses a model the catalogue cannot price at the provider, before admission or any upstream call", async () => {
    const admitsBefore = edge.billing.admits.length;
    for (const model of ["gpt-unlisted", "o3", "gpt-4o-2024-11-20"]) {
      const response = await post("/openai/v1/chat/completions", { ...chat, model });
      expect(response.status, model).toBe(400);
      const body = (await response.json()) as { error: { message: string; metadata: { reason: string } } };
      expect(body.error.metadata.reason).toBe("model_not_priced");
      expect(body.error.message).toContain(model);
    }
    const nul = await post("/openai/v1/chat/completions", { ...chat, model: "gpt-4o-mini\u0000" });
    expect(nul.status).toBe(400);
    expect(((await nul.json()) as { error: { message: string } }).error.message).toContain("model");
    expect(edge.billing.admits.length).toBe(admitsBefore);
    expect(edge.primary.requests()).toEqual([]);
  });

  it("passes a provider's error status and body through, releasing the hold", async () => {
    const response = await post("/openai/v1/chat/completions", chat, key.secret, {
      "x-fake-scenario": "fail;status=400;message=bad thing",
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain("bad thing");
    const id = response.headers.get("x-generation-id") ?? "";
    await expect.poll(() => edge.billing.releases.some((r) => r.holdId === id)).toBe(true);
  });
});

describe("proxy refusals", () => {
  it("refuses a provider outside allowed_providers with 403 before calling it", async () => {
    const response = await post(
      "/anthropic/v1/messages",
      { model: "claude-test", max_tokens: 8, messages: [] },
      openaiOnly.secret,
    );
    expect(response.status).toBe(403);
    // The gateway's own error in the called provider's shape (Anthropic's envelope here).
    expect(await response.json()).toMatchObject({
      type: "error",
      error: { type: "permission_error" },
    });
    expect(edge.anthropic.requests()).toEqual([]);
  });

  it("enforces allowed_models on the model the body names (unknown models included)", async () => {
    expect((await post("/openai/v1/chat/completions", chat, miniOnly.secret)).status).toBe(200);
    for (const model of ["gpt-4o", "not-in-catalogue"]) {
      const response = await post("/openai/v1/chat/completions", { ...chat, model }, miniOnly.secret);
      expect(response.status).toBe(403);
      expect(
        ((await response.json()) as { error: { metadata: { reason: string } } }).error.metadata.reason,
      ).toBe("model_not_allowed");
    }
    expect(edge.primary.requests()).toHaveLength(1);
  });

  it("answers 402 on an admission refusal before the provider is called", async () => {
    edge.billing.refusal = refusal(RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS, { limitSource: "account" });
    const response = await post("/openai/v1/chat/completions", chat);
    expect(response.status).toBe(402);
    expect(edge.primary.requests()).toEqual([]);
  });

  it("404 for a slug that is no provider, 503 for one not configured, 401/403 for bad keys, 413 for big bodies", async () => {
    expect((await post("/nope/v1/chat/completions", chat)).status).toBe(404);
    const unconfigured = await post("/deepseek/v1/chat/completions", chat);
    expect(unconfigured.status).toBe(503);
    expect(
      ((await unconfigured.json()) as { error: { metadata: { reason: string } } }).error.metadata.reason,
    ).toBe("no_available_provider");
    expect((await post("/openai/v1/chat/completions", chat, "lr_live_wrong")).status).toBe(401);
    expect((await post("/openai/v1/chat/completions", chat, management.secret)).status).toBe(403);
    const big = { ...chat, messages: [{ role: "user", content: "x".repeat(70_000) }] };
    expect((await post("/openai/v1/chat/completions", big)).status).toBe(413);
    expect(edge.primary.requests()).toEqual([]);
  });

  it("answers 502 when the provider cannot be reached, and releases the hold", async () => {
    const response = await post("/mistral/v1/chat/completions", { ...chat, model: "mistral-small" });
    expect(response.status).toBe(502);
    expect(
      ((await response.json()) as { error: { metadata: { reason: string } } }).error.metadata.reason,
    ).toBe("upstream_error");
    const id = response.headers.get("x-generation-id") ?? "";
    await expect.poll(() => edge.billing.releases.some((r) => r.holdId === id)).toBe(true);
    const event = await usageEventFor(edge, id);
    expect(event).toMatchObject({ apiType: "proxy", provider: "mistral", costPico: 0n });
  });

  it("does not shadow the gateway's own routes", async () => {
    const health = await fetch(`${edge.url}/healthz`);
    expect(health.status).toBe(200);
    const models = await fetch(`${edge.url}/v1/models`, {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    expect(((await models.json()) as { object: string }).object).toBe("list");
  });
});
