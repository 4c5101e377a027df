import { generationIdTime } from "@gw/events";
import { RefusalCode } from "@gw/proto/billing/v1/billing";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { refusal } from "../test/billing.js";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { readError } from "../test/http.js";
import { testKey } from "../test/principals.js";

const key = testKey("acct-chat");
const admin = testKey("acct-chat", { management: true });
let edge: EdgeHarness;
let client: OpenAI;

beforeAll(async () => {
  edge = await startEdgeHarness({
    keys: [key, admin],
    env: { UPSTREAM_FIRST_BYTE_TIMEOUT_MS: "1000", BODY_LIMIT: "64kb" },
    settings: { keepAliveMs: 100 },
  });
  client = new OpenAI({ apiKey: key.secret, baseURL: `${edge.url}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await edge?.stop();
});

beforeEach(() => {
  for (const fake of [edge.primary, edge.backup, edge.demo]) {
    fake.resetScenario();
    fake.clearRequests();
  }
  edge.billing.refusal = undefined;
  edge.billing.unavailable = false;
});

async function eventFor(generationId: string) {
  await expect
    .poll(() => edge.usageEvents().find((event) => event.generationId === generationId))
    .toBeDefined();
  return edge.usageEvents().find((event) => event.generationId === generationId)!;
}

async function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${edge.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const hello = { model: "openai/gpt-4o-mini", messages: [{ role: "user" as const, content: "hi" }] };

describe("POST /v1/chat/completions, non-streamed", () => {
  it("answers through the openai SDK with our id, model, provider and usage with cost", async () => {
    const { data, response } = await client.chat.completions.create(hello).withResponse();
    expect(data.id).toMatch(/^gen-/);
    expect(generationIdTime(data.id)).toBeDefined();
    expect(response.headers.get("x-generation-id")).toBe(data.id);
    expect(data.model).toBe("openai/gpt-4o-mini");
    expect(data.choices[0]?.message.content).toBe("Echo: hi");
    const body = data as unknown as { provider: string; usage: Record<string, unknown> };
    expect(body.provider).toBe("openai");
    const usage = data.usage!;
    const expectedCost = (usage.prompt_tokens * 150_000 + usage.completion_tokens * 600_000) / 1e12;
    expect(body.usage.cost).toBeCloseTo(expectedCost, 15);
    expect(body.usage.estimated).toBe(false);
    expect(body.usage.cost_details).toMatchObject({ upstream_inference_cost: body.usage.cost });
  });

  it("sends the provider its own model name and none of the gateway's routing fields", async () => {
    await client.chat.completions.create({
      ...hello,
      models: ["demo/echo"],
      provider: { sort: "price" },
    } as never);
    const [upstream] = edge.primary.requests(1);
    expect(upstream?.headers.authorization).toBe("Bearer sk-fake-upstream");
    expect(upstream?.body).toEqual({ model: "gpt-4o-mini", messages: hello.messages });
  });

  it("admits once with the worst case, settles to the exact cost and publishes one usage event", async () => {
    const data = await client.chat.completions.create({ ...hello, max_tokens: 50 });
    const admit = edge.billing.admits.find((request) => request.holdId === data.id);
    // Prompt "hi": 1 text of 2 bytes → 1 token, + 3 framing + 3 primer = 7 tokens; 50 output tokens.
    expect(admit).toMatchObject({
      accountId: "acct-chat",
      keyHash: key.principal.keyHash,
      modelId: "openai/gpt-4o-mini",
    });
    expect(admit?.worstCaseCostPico).toBe(7n * 150_000n + 50n * 600_000n);
    const event = await eventFor(data.id);
    const cost =
      BigInt(data.usage!.prompt_tokens) * 150_000n + BigInt(data.usage!.completion_tokens) * 600_000n;
    expect(event).toMatchObject({
      accountId: "acct-chat",
      keyHash: key.principal.keyHash,
      model: "openai/gpt-4o-mini",
      provider: "openai",
      apiType: "chat",
      streamed: false,
      cancelled: false,
      finishReason: "stop",
      nativeFinishReason: "stop",
      estimated: false,
      promptTokens: data.usage!.prompt_tokens,
      completionTokens: data.usage!.completion_tokens,
      costPico: cost,
      attempts: [{ provider: "openai", model: "openai/gpt-4o-mini", status: 200, isByok: false }],
    });
    expect(event.upstreamId).toMatch(/^chatcmpl-/);
    await expect
      .poll(() => edge.billing.settles.find((settle) => settle.holdId === data.id)?.actualCostPico)
      .toBe(cost);
  });

  it("estimates usage with the tokenizer when the provider reports none, and says so", async () => {
    edge.primary.setScenario({ name: "no-usage" });
    const data = await client.chat.completions.create(hello);
    const usage = data.usage as unknown as {
      prompt_tokens: number;
      completion_tokens: number;
      cost: number;
      estimated: boolean;
    };
    expect(usage.estimated).toBe(true);
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.completion_tokens).toBeGreaterThan(0);
    expect(usage.cost).toBeGreaterThan(0);
    expect((await eventFor(data.id)).estimated).toBe(true);
  });

  it("serves the built-in demo provider", async () => {
    const data = await client.chat.completions.create({ ...hello, model: "demo/echo" });
    expect((data as unknown as { provider: string }).provider).toBe("demo");
    expect(data.choices[0]?.message.content).toMatch(/demo/i);
  });
});

describe("POST /v1/chat/completions, streamed", () => {
  it("passes chunks through with our id and model and ends with our usage chunk and [DONE]", async () => {
    const stream = await client.chat.completions.create({ ...hello, stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const ids = new Set(chunks.map((chunk) => chunk.id));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect(id).toMatch(/^gen-/);
    expect(chunks.every((chunk) => chunk.model === "openai/gpt-4o-mini")).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe("Echo: hi");
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    const usage = last.usage as unknown as { cost: number; estimated: boolean; total_tokens: number };
    expect(usage.cost).toBeGreaterThan(0);
    expect(usage.estimated).toBe(false);
    expect(chunks.slice(0, -1).every((chunk) => !chunk.usage)).toBe(true);
    const event = await eventFor(id!);
    expect(event).toMatchObject({
      streamed: true,
      cancelled: false,
      finishReason: "stop",
      totalTokens: usage.total_tokens,
    });
  });

  it("always asks the upstream for usage and writes [DONE] last on the wire", async () => {
    const response = await post({ ...hello, stream: true });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const text = await response.text();
    const frames = text.split("\n\n").filter(Boolean);
    expect(frames.at(-1)).toBe("data: [DONE]");
    expect(JSON.parse(frames.at(-2)!.slice(6))).toMatchObject({
      id: response.headers.get("x-generation-id"),
      choices: [],
    });
    expect(edge.primary.requests(1)[0]?.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("estimates and marks usage when the upstream stream carries none", async () => {
    edge.primary.setScenario({ name: "no-usage" });
    const stream = await client.chat.completions.create({ ...hello, stream: true });
    let last: OpenAI.ChatCompletionChunk | undefined;
    for await (const chunk of stream) last = chunk;
    const usage = last?.usage as unknown as { estimated: boolean; completion_tokens: number };
    expect(usage.estimated).toBe(true);
    expect(usage.completion_tokens).toBeGreaterThan(0);
  });

  it("sends keep-alive comments while the upstream is silent", async () => {
    edge.primary.setScenario({ name: "slow", ms: 350 });
    const text = await (await post({ ...hello, stream: true })).text();
    expect(text.startsWith(": keep-alive\n\n")).toBe(true);
    expect(text).toContain('"content":"Echo:"');
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
  });

  it("ends a stream the upstream drops with an error chunk the SDK throws on, and meters what was sent", async () => {
    edge.primary.setScenario({ name: "drop-mid-stream", after: 2 });
    const stream = await client.chat.completions.create({ ...hello, stream: true });
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) seen.push(chunk.id);
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(seen.length).toBeGreaterThan(0);
    const event = await eventFor(seen[0]!);
    expect(event).toMatchObject({ finishReason: "error", estimated: true, cancelled: false });
    expect(event.promptTokens).toBeGreaterThan(0);
  });

  it("aborts the upstream call when the client disconnects, and still meters", async () => {
    // A frame a second: left alone, the upstream stream would run for longer than the poll below.
    edge.primary.setScenario({ name: "slow-stream", ms: 1_000 });
    const before = edge.primary.disconnects();
    const response = await post({
      ...hello,
      messages: [{ role: "user", content: "a longer prompt to stream, word by word, for ten seconds" }],
      stream: true,
    });
    const id = response.headers.get("x-generation-id")!;
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    // The upstream saw its client (the edge) go away before its response ended.
    await expect.poll(() => edge.primary.disconnects(), { timeout: 5_000 }).toBe(before + 1);
    const event = await eventFor(id);
    expect(event).toMatchObject({ cancelled: true, estimated: true, streamed: true });
    expect(event.promptTokens).toBeGreaterThan(0);
    expect(event.costPico).toBeGreaterThan(0n);
  });
});

describe("failover before the first byte", () => {
  it("moves to the next provider on a 5xx and records both attempts", async () => {
    edge.primary.setScenario({ name: "fail", status: 503 });
    const data = await client.chat.completions.create({ ...hello, model: "test/failover" });
    expect((data as unknown as { provider: string }).provider).toBe("groq");
    expect(edge.backup.requests(1)[0]?.body).toMatchObject({ model: "llama-3.3-70b" });
    const event = await eventFor(data.id);
    expect(event.attempts.map((attempt) => [attempt.provider, attempt.status])).toEqual([
      ["openai", 503],
      ["groq", 200],
    ]);
  });

  it("moves on after a first-byte timeout and a rate limit, then to the fallback model", async () => {
    edge.primary.setScenario({ name: "slow", ms: 3_000 });
    edge.backup.setScenario({ name: "rate-limit" });
    // An explicit order: openai failed in the previous test, so the default order would now put it last.
    const data = await client.chat.completions.create({
      ...hello,
      model: "test/failover",
      models: ["demo/echo"],
      provider: { order: ["openai", "groq"] },
    } as never);
    expect(data.model).toBe("demo/echo");
    const event = await eventFor(data.id);
    expect(event.attempts.map((attempt) => [attempt.provider, attempt.status])).toEqual([
      ["openai", 0],
      ["groq", 429],
      ["demo", 200],
    ]);
  });

  it("does not retry a request error, and passes the upstream's 400 on", async () => {
    edge.primary.setScenario({ name: "fail", status: 400, message: "messages: bad shape" });
    const response = await post({ ...hello, model: "test/failover" });
    expect(response.status).toBe(400);
    expect(await readError(response)).toMatchObject({
      message: "messages: bad shape",
      type: "invalid_request_error",
    });
    expect(edge.backup.requests()).toHaveLength(0);
    const id = response.headers.get("x-generation-id")!;
    await expect.poll(() => edge.billing.releases.some((release) => release.holdId === id)).toBe(true);
  });

  it("answers 502 when every provider failed, 504 when the last one timed out, in our envelope", async () => {
    edge.primary.setScenario({ name: "fail", status: 500 });
    edge.backup.setScenario({ name: "fail", status: 502 });
    const failed = await post({ ...hello, model: "test/failover" });
    expect(failed.status).toBe(502);
    expect(await readError(failed)).toMatchObject({
      type: "upstream_error",
      metadata: {
        attempts: [
          { provider: "openai", status: 500 },
          { provider: "groq", status: 502 },
        ],
      },
    });
    edge.backup.setScenario({ name: "slow", ms: 3_000 });
    const slow = await post({ ...hello, model: "test/backup-only" });
    expect(slow.status).toBe(504);
    expect((await readError(slow)).type).toBe("timeout_error");
  });

  it("fails over a stream whose upstream fails before sending anything", async () => {
    edge.primary.setScenario({ name: "fail", status: 500 });
    const stream = await client.chat.completions.create({ ...hello, model: "test/failover", stream: true });
    const text: string[] = [];
    for await (const chunk of stream) text.push(chunk.choices[0]?.delta.content ?? "");
    expect(text.join("")).toBe("Echo: hi");
  });
});

describe("errors in the OpenAI envelope", () => {
  const errorOf = readError;

  it("401 for a missing key and for an unknown one, with the spec's messages", async () => {
    const missing = await errorOf(await post(hello, { authorization: "" }));
    expect(missing).toMatchObject({
      status: 401,
      type: "authentication_error",
      message: "missing or invalid Authorization header",
    });
    const unknown = await errorOf(await post(hello, { authorization: `Bearer lr_live_${"0".repeat(48)}` }));
    expect(unknown).toMatchObject({ status: 401, message: "invalid api key", reason: "key_not_found" });
    await expect(
      new OpenAI({
        apiKey: "lr_live_nope",
        baseURL: `${edge.url}/v1`,
        maxRetries: 0,
      }).chat.completions.create(hello),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it("403 for a management key", async () => {
    const error = await errorOf(await post(hello, { authorization: `Bearer ${admin.secret}` }));
    expect(error).toMatchObject({ status: 403, type: "permission_error" });
  });

  it("400 for malformed JSON and for a bad field, 413 above the body limit", async () => {
    expect(await errorOf(await post("{not json"))).toMatchObject({
      status: 400,
      type: "invalid_request_error",
      reason: "invalid_json",
    });
    const bad = await errorOf(await post({ model: "openai/gpt-4o-mini", messages: [{ role: "user" }] }));
    expect(bad).toMatchObject({ status: 400, message: expect.stringMatching(/^messages\[0\]\.content:/) });
    const big = await errorOf(
      await post({ ...hello, messages: [{ role: "user", content: "x".repeat(70_000) }] }),
    );
    expect(big).toMatchObject({ status: 413, type: "request_too_large" });
  });

  it("404 for an unknown model, 503 with the reasons when no provider can serve it", async () => {
    await expect(client.chat.completions.create({ ...hello, model: "nope/missing" })).rejects.toBeInstanceOf(
      OpenAI.NotFoundError,
    );
    const unconfigured = await errorOf(await post({ ...hello, model: "mistral/unconfigured" }));
    expect(unconfigured).toMatchObject({
      status: 503,
      type: "service_unavailable",
      reason: "no_available_provider",
    });
    expect(unconfigured.metadata?.excluded).toEqual([
      {
        model: "mistral/unconfigured",
        provider: "mistral",
        code: "provider_not_configured",
        reason: "the provider has no credentials on this gateway",
      },
    ]);
  });

  it("402 and 429 from admission, before any provider is called", async () => {
    edge.billing.refusal = refusal(RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS, { limitSource: "account" });
    const broke = await errorOf(await post(hello));
    expect(broke).toMatchObject({
      status: 402,
      type: "payment_required",
      code: 402,
      metadata: { limit_source: "account", reason: "insufficient_credits" },
    });
    edge.billing.refusal = refusal(RefusalCode.REFUSAL_CODE_RATE_LIMITED, {
      retryAfterSeconds: 30,
      rateLimit: 20,
      rateResetUnixMs: 99n,
    });
    const limited = await errorOf(await post(hello));
    expect(limited).toMatchObject({ status: 429, type: "rate_limit_error" });
    expect(limited.headers.get("retry-after")).toBe("30");
    expect(limited.headers.get("x-ratelimit-limit")).toBe("20");
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("x-ratelimit-reset")).toBe("99");
    expect(edge.primary.requests()).toHaveLength(0);
  });

  it("503 when billing cannot answer: admission fails closed", async () => {
    edge.billing.unavailable = true;
    const error = await errorOf(await post(hello));
    expect(error).toMatchObject({ status: 503, type: "service_unavailable" });
    expect(edge.primary.requests()).toHaveLength(0);
  });

  it("X-Generation-Id only on a request that will have a record: refused before admission's yes, none", async () => {
    const idOf = async (response: Response) => {
      await response.arrayBuffer();
      return { status: response.status, id: response.headers.get("x-generation-id") };
    };
    expect(await idOf(await post({ ...hello, model: "nope/missing" }))).toEqual({ status: 404, id: null });
    expect(await idOf(await post(hello, { authorization: "" }))).toEqual({ status: 401, id: null });
    edge.billing.refusal = refusal(RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS, { limitSource: "account" });
    expect(await idOf(await post(hello))).toEqual({ status: 402, id: null });
    expect(await idOf(await post({ ...hello, stream: true }))).toEqual({ status: 402, id: null });
    edge.billing.refusal = undefined;
    edge.billing.unavailable = true;
    expect(await idOf(await post(hello))).toEqual({ status: 503, id: null });
    edge.billing.unavailable = false;
    const served = await post(hello);
    const id = served.headers.get("x-generation-id") ?? "";
    expect(((await served.json()) as { id: string }).id).toBe(id);
    expect((await eventFor(id)).generationId).toBe(id);
  });

  it("X-Generation-Id on an admitted request the provider then fails: its record says so", async () => {
    for (const fake of [edge.primary, edge.backup]) fake.setScenario({ name: "fail", status: 500 });
    const response = await post(hello);
    expect(response.status).toBe(502);
    const id = response.headers.get("x-generation-id") ?? "";
    expect(id).toMatch(/^gen-/);
    expect((await eventFor(id)).finishReason).toBe("error");
  });
});

describe("a request no endpoint has room for", () => {
  it("is a 400 the OpenAI SDK at its default settings does not retry", async () => {
    let calls = 0;
    // Default maxRetries (2): the SDK retries 408, 409, 429 and 5xx, so a 503 here was sent three times.
    const sdk = new OpenAI({
      apiKey: key.secret,
      baseURL: `${edge.url}/v1`,
      fetch: (url, init) => {
        calls += 1;
        return fetch(url, init);
      },
    });
    const upstreamBefore = edge.primary.requests().length;
    const refused = await sdk.chat.completions
      .create({
        model: "openai/gpt-4o-mini",
        messages: [{ role: "user", content: "hi" }],
        max_tokens: 128_001,
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    const body = (refused as InstanceType<typeof OpenAI.BadRequestError>).error as {
      message: string;
      metadata: { reason: string };
    };
    expect(body.metadata.reason).toBe("context_length_exceeded");
    // Above the context (128,000) minus the prompt: OpenRouter's documented maximum for max_tokens.
    expect(body.message).toContain("plus 128001 of output exceed its context of 128000");
    expect(calls).toBe(1);
    expect(edge.primary.requests().length).toBe(upstreamBefore);
  });
});
