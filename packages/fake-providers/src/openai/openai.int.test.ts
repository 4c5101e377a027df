import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { decodeFloat32Base64, embedText } from "../core/embedding.js";
import type { FakeServer } from "../core/server.js";
import { startFakeOpenAi } from "./server.js";

const KEY = "sk-fake-test-key";
let server: FakeServer;

beforeAll(async () => {
  server = await startFakeOpenAi({ apiKey: KEY });
});
afterAll(() => server.close());
beforeEach(() => {
  server.clearRequests();
  server.resetScenario();
});

function client(options: { apiKey?: string; maxRetries?: number; timeout?: number; scenario?: string } = {}) {
  return new OpenAI({
    apiKey: options.apiKey ?? KEY,
    baseURL: server.baseUrl,
    maxRetries: options.maxRetries ?? 0,
    ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
    ...(options.scenario ? { defaultHeaders: { "x-fake-scenario": options.scenario } } : {}),
  });
}

const hello = { model: "gpt-4o-mini", messages: [{ role: "user" as const, content: "Hello there" }] };
const weatherTool = {
  type: "function" as const,
  function: {
    name: "get_weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

describe("chat completions through the openai SDK", () => {
  it("parses a completion with predictable usage and the request id", async () => {
    const { data, request_id } = await client().chat.completions.create(hello).withResponse();
    expect(data.id).toMatch(/^chatcmpl-/);
    expect(data.object).toBe("chat.completion");
    expect(data.choices[0]?.message.content).toBe("Echo: Hello there");
    expect(data.choices[0]?.finish_reason).toBe("stop");
    // "Hello there" = 3 tokens + 3 per message + 3 priming; "Echo: Hello there" = 5.
    expect(data.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 5, total_tokens: 14 });
    expect(request_id).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it("logs what it was sent, credential included", async () => {
    await client().chat.completions.create(hello);
    const [logged] = server.requests();
    expect(logged?.method).toBe("POST");
    expect(logged?.path).toBe("/v1/chat/completions");
    expect(logged?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(logged?.body).toMatchObject({ model: "gpt-4o-mini" });
  });

  it("streams chunks and a final usage chunk with include_usage", async () => {
    const stream = await client().chat.completions.create({
      ...hello,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe("Echo: Hello there");
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 5 });
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("stop");
  });

  it("sends no usage at all in a stream without include_usage", async () => {
    const stream = await client().chat.completions.create({ ...hello, stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => c.usage === undefined && c.choices.length === 1)).toBe(true);
  });

  it("answers a weather question with a tool call, then uses the tool result", async () => {
    const question = { role: "user" as const, content: "What is the weather in Paris?" };
    const first = await client().chat.completions.create({
      model: "gpt-4o",
      messages: [question],
      tools: [weatherTool],
    });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe("tool_calls");
    expect(call?.type === "function" && call.function.name).toBe("get_weather");
    expect(call?.type === "function" && JSON.parse(call.function.arguments)).toEqual({ city: "Paris" });

    const second = await client().chat.completions.create({
      model: "gpt-4o",
      tools: [weatherTool],
      messages: [
        question,
        { role: "assistant", content: null, tool_calls: call ? [call] : [] },
        { role: "tool", tool_call_id: call?.id ?? "", content: "18C, sunny" },
      ],
    });
    expect(second.choices[0]?.message.content).toBe("Echo: Tool result received: 18C, sunny");
  });

  it("streams a tool call the SDK's ChatCompletionStream can assemble", async () => {
    const stream = client().chat.completions.stream({
      model: "gpt-4o",
      messages: [{ role: "user", content: "weather in Berlin please" }],
      tools: [weatherTool],
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    const call = final.choices[0]?.message.tool_calls?.[0];
    expect(final.choices[0]?.finish_reason).toBe("tool_calls");
    expect(call?.type === "function" && JSON.parse(call.function.arguments)).toEqual({ city: "Berlin" });
    expect(final.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it("stops at max_tokens with finish_reason length", async () => {
    const result = await client().chat.completions.create({ ...hello, max_completion_tokens: 2 });
    expect(result.choices[0]?.message.content).toBe("Echo: He");
    expect(result.choices[0]?.finish_reason).toBe("length");
    expect(result.usage?.completion_tokens).toBe(2);
  });

  it("lists models", async () => {
    const page = await client().models.list();
    expect(page.data.map((m) => m.id)).toContain("gpt-4o-mini");
  });
});

describe("embeddings through the openai SDK", () => {
  it("decodes the base64 the SDK asks for by default into the same floats", async () => {
    const result = await client().embeddings.create({ model: "text-embedding-3-small", input: "hello" });
    expect(server.requests()[0]?.body).toMatchObject({ encoding_format: "base64" });
    const vector = result.data[0]?.embedding ?? [];
    expect(vector).toHaveLength(1536);
    expect(Array.from(vector)).toEqual(embedText("hello", 1536));
    expect(result.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
  });

  it("returns floats when asked, with reduced dimensions and several inputs", async () => {
    const result = await client().embeddings.create({
      model: "text-embedding-3-small",
      input: ["one", "two"],
      encoding_format: "float",
      dimensions: 256,
    });
    expect(result.data.map((d) => d.index)).toEqual([0, 1]);
    expect(result.data[1]?.embedding).toEqual(embedText("two", 256));
  });

  it("sends raw base64 when the caller asks for it explicitly", async () => {
    const result = await client().embeddings.create({
      model: "text-embedding-3-small",
      input: "hello",
      encoding_format: "base64",
    });
    const encoded = result.data[0]?.embedding as unknown as string;
    expect(decodeFloat32Base64(encoded)).toEqual(embedText("hello", 1536));
  });

  it("refuses an empty input like the API", async () => {
    await expect(
      client().embeddings.create({ model: "text-embedding-3-small", input: "" }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  });
});

describe("failures the openai SDK recognises", () => {
  it("raises AuthenticationError for a wrong key", async () => {
    const error = await client({ apiKey: "sk-wrong-key-0000" })
      .chat.completions.create(hello)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: "invalid_api_key", type: "invalid_request_error" });
  });

  it("maps scenario statuses onto the SDK's error classes", async () => {
    const cases = [
      [400, OpenAI.BadRequestError],
      [404, OpenAI.NotFoundError],
      [500, OpenAI.InternalServerError],
      [503, OpenAI.InternalServerError],
    ] as const;
    for (const [status, errorClass] of cases) {
      const error = await client({ scenario: `fail;status=${status}` })
        .chat.completions.create(hello)
        .catch((e: unknown) => e);
      expect(error, String(status)).toBeInstanceOf(errorClass);
      expect(error).toMatchObject({ status });
      expect((error as InstanceType<typeof OpenAI.APIError>).requestID).toMatch(/^req_/);
    }
  });

  it("rate-limits with 429 and retry-after", async () => {
    const error = await client({ scenario: "rate-limit;retry_after=2" })
      .chat.completions.create(hello)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers.get("retry-after")).toBe("2");
    expect(error).toMatchObject({ code: "rate_limit_exceeded" });
  });

  it("lets the SDK retry past a server scenario limited to one request", async () => {
    server.setScenario({ name: "fail", status: 503, times: 1 });
    const result = await client({ maxRetries: 1 }).chat.completions.create(hello);
    expect(result.choices[0]?.message.content).toBe("Echo: Hello there");
    const attempts = server.requests();
    expect(attempts).toHaveLength(2);
    expect(attempts[1]?.headers["x-stainless-retry-count"]).toBe("1");
  });

  it("surfaces a stream dropped mid-way as an error after some chunks", async () => {
    const stream = await client({ scenario: "drop-mid-stream;after=2" }).chat.completions.create({
      ...hello,
      stream: true,
    });
    const received: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? "");
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(received).toHaveLength(2);
  });

  it("surfaces a truncated non-streamed body as an error", async () => {
    await expect(
      client({ scenario: "drop-mid-stream" }).chat.completions.create(hello),
    ).rejects.toBeInstanceOf(Error);
  });

  it("omits usage under no-usage", async () => {
    const result = await client({ scenario: "no-usage" }).chat.completions.create(hello);
    expect(result.usage).toBeUndefined();
    const stream = await client({ scenario: "no-usage" }).chat.completions.create({
      ...hello,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.some((c) => c.choices.length === 0)).toBe(false);
  });

  it("delays the first byte under slow and between chunks under slow-stream", async () => {
    let started = Date.now();
    await client({ scenario: "slow;ms=250" }).chat.completions.create(hello);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);

    started = Date.now();
    const stream = await client({ scenario: "slow-stream;ms=60" }).chat.completions.create({
      ...hello,
      stream: true,
    });
    let chunks = 0;
    for await (const _ of stream) chunks += 1;
    // Role, three words, finish, then [DONE] (which the SDK does not yield): five gaps of 60 ms.
    expect(chunks).toBe(5);
    expect(Date.now() - started).toBeGreaterThanOrEqual(5 * 60 - 10);
  });

  it("hangs until the client gives up", async () => {
    const error = await client({ scenario: "hang", timeout: 300 })
      .chat.completions.create(hello)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });
});

describe("demo mode", () => {
  it("needs no key and says it is Model Gateway's built-in demo", async () => {
    const demo = await startFakeOpenAi({ demo: true });
    try {
      const sdk = new OpenAI({ apiKey: "unused", baseURL: demo.baseUrl, maxRetries: 0 });
      const result = await sdk.chat.completions.create({
        model: "echo",
        messages: [{ role: "user", content: "Hi" }],
      });
      expect(result.choices[0]?.message.content).toBe(
        "This is the built-in demo provider of Model Gateway, not a real model. You said: Hi",
      );
      const models = await sdk.models.list();
      expect(models.data.map((m) => m.id)).toEqual(["echo", "echo-embedding"]);
      const raw = await fetch(`${demo.baseUrl}/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "echo", messages: [{ role: "user", content: "no key" }] }),
      });
      expect(raw.status).toBe(200);
    } finally {
      await demo.close();
    }
  });

  it("refuses models outside knownModels with model_not_found", async () => {
    const strict = await startFakeOpenAi({ knownModels: ["gpt-4o-mini"] });
    try {
      const sdk = new OpenAI({ apiKey: KEY, baseURL: strict.baseUrl, maxRetries: 0 });
      const error = await sdk.chat.completions.create({ ...hello, model: "gpt-9" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect(error).toMatchObject({ code: "model_not_found" });
    } finally {
      await strict.close();
    }
  });
});
