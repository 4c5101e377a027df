import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeServer } from "../core/server.js";
import { startFakeAnthropic } from "./server.js";

const KEY = "sk-ant-fake-test";
let server: FakeServer;

beforeAll(async () => {
  server = await startFakeAnthropic({ apiKey: KEY });
});
afterAll(() => server.close());
beforeEach(() => {
  server.clearRequests();
  server.resetScenario();
});

function client(options: { apiKey?: string; scenario?: string } = {}) {
  return new Anthropic({
    apiKey: options.apiKey ?? KEY,
    baseURL: server.baseUrl,
    maxRetries: 0,
    ...(options.scenario ? { defaultHeaders: { "x-fake-scenario": options.scenario } } : {}),
  });
}

const hello = {
  model: "claude-sonnet-4-20250514",
  max_tokens: 100,
  messages: [{ role: "user" as const, content: "Hello" }],
};
const weatherTool = {
  name: "get_weather",
  input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] },
};

async function rawMessages(body: unknown, headers: Record<string, string> = {}, query = "") {
  return fetch(`${server.url}/v1/messages${query}`, {
    method: "POST",
    headers: {
      "x-api-key": KEY,
      "anthropic-version": "2023-06-01",
      "content-type": "application/json",
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

describe("messages through the @anthropic-ai/sdk", () => {
  it("parses a message with usage and the request id", async () => {
    const { data, request_id } = await client().messages.create(hello).withResponse();
    expect(data.id).toMatch(/^msg_01/);
    expect(data.content).toEqual([{ type: "text", text: "Echo: Hello" }]);
    expect(data.stop_reason).toBe("end_turn");
    // "Hello" = 2 tokens + 3 for the message; "Echo: Hello" = 3.
    expect(data.usage).toMatchObject({ input_tokens: 5, output_tokens: 3, cache_read_input_tokens: 0 });
    expect(request_id).toMatch(/^req_011/);
  });

  it("sees the credential and version headers the SDK sends", async () => {
    await client().messages.create(hello);
    const headers = server.requests()[0]?.headers;
    // SDK 1.x sends an API key as a Bearer token (older SDKs used x-api-key; the fake accepts both).
    expect(headers?.authorization).toBe(`Bearer ${KEY}`);
    expect(headers?.["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await rawMessages(hello)).status).toBe(200);
    expect(server.requests()[1]?.headers["x-api-key"]).toBe(KEY);
  });

  it("streams events the SDK's MessageStream assembles", async () => {
    const stream = client().messages.stream(hello);
    const texts: string[] = [];
    stream.on("text", (text) => texts.push(text));
    const final = await stream.finalMessage();
    expect(texts.join("")).toBe("Echo: Hello");
    expect(final.content).toEqual([{ type: "text", text: "Echo: Hello" }]);
    expect(final.usage).toMatchObject({ input_tokens: 5, output_tokens: 3 });
    expect(final.stop_reason).toBe("end_turn");
  });

  it("sends the exact event sequence with event: lines and a ping", async () => {
    const response = await rawMessages({ ...hello, stream: true });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const body = await response.text();
    const events = [...body.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
    expect(events).toEqual([
      "message_start",
      "content_block_start",
      "ping",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(body).toContain('"usage":{"output_tokens":3}');
  });

  it("streams a tool call with a text block first and parsed input", async () => {
    const stream = client().messages.stream({
      ...hello,
      messages: [{ role: "user", content: "What's the weather in Rome?" }],
      tools: [weatherTool],
    });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe("tool_use");
    expect(final.content[0]).toMatchObject({ type: "text", text: "Let me check that." });
    expect(final.content[1]).toMatchObject({
      type: "tool_use",
      name: "get_weather",
      input: { city: "Rome" },
    });
    expect(final.content[1]?.type === "tool_use" && final.content[1].id).toMatch(/^toolu_01/);
  });

  it("answers a tool result in the next turn", async () => {
    const first = await client().messages.create({
      ...hello,
      messages: [{ role: "user", content: "weather?" }],
      tools: [weatherTool],
    });
    const toolUse = first.content.find((b) => b.type === "tool_use");
    const second = await client().messages.create({
      ...hello,
      tools: [weatherTool],
      messages: [
        { role: "user", content: "weather?" },
        { role: "assistant", content: first.content },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: toolUse?.type === "tool_use" ? toolUse.id : "",
              content: "18C",
            },
          ],
        },
      ],
    });
    expect(second.content).toEqual([{ type: "text", text: "Echo: Tool result received: 18C" }]);
  });

  it("stops at max_tokens", async () => {
    const result = await client().messages.create({ ...hello, max_tokens: 1 });
    expect(result).toMatchObject({ stop_reason: "max_tokens", content: [{ type: "text", text: "Echo" }] });
  });

  it("counts tokens", async () => {
    const result = await client().messages.countTokens({ model: hello.model, messages: hello.messages });
    expect(result).toEqual({ input_tokens: 5 });
  });

  it("tolerates the beta query parameter", async () => {
    const response = await rawMessages(hello, {}, "?beta=true");
    expect(response.status).toBe(200);
  });
});

describe("failures the @anthropic-ai/sdk recognises", () => {
  it("raises AuthenticationError for a wrong key, with the provider's body", async () => {
    const error = await client({ apiKey: "wrong" })
      .messages.create(hello)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(error).toMatchObject({
      status: 401,
      error: { type: "error", error: { type: "authentication_error" } },
    });
  });

  it("requires the anthropic-version header like the real API", async () => {
    const response = await fetch(`${server.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": KEY, "content-type": "application/json" },
      body: JSON.stringify(hello),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { request_id: string };
    expect(body).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(body.request_id).toBe(response.headers.get("request-id"));
  });

  it("refuses a request without max_tokens", async () => {
    const response = await rawMessages({ model: hello.model, messages: hello.messages });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { message: "max_tokens: Field required" } });
  });

  it("refuses max_tokens above the model's output cap, as the API does", async () => {
    const response = await rawMessages({
      model: "claude-sonnet-4-20250514",
      max_tokens: 128_000,
      messages: hello.messages,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: {
        type: "invalid_request_error",
        message:
          "max_tokens: 128000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-20250514",
      },
    });
    expect(
      (await rawMessages({ ...hello, model: "claude-sonnet-4-20250514", max_tokens: 64_000 })).status,
    ).toBe(200);
  });

  it("maps scenario statuses onto the SDK's error classes", async () => {
    const cases = [
      [429, Anthropic.RateLimitError, "rate_limit_error"],
      [500, Anthropic.InternalServerError, "api_error"],
      [529, Anthropic.InternalServerError, "overloaded_error"],
    ] as const;
    for (const [status, errorClass, type] of cases) {
      const error = await client({ scenario: `fail;status=${status}` })
        .messages.create(hello)
        .catch((e: unknown) => e);
      expect(error, String(status)).toBeInstanceOf(errorClass);
      expect(error).toMatchObject({ status, error: { error: { type } } });
    }
  });

  it("rate-limits with retry-after", async () => {
    const error = await client({ scenario: "rate-limit;retry_after=3" })
      .messages.create(hello)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect((error as InstanceType<typeof Anthropic.RateLimitError>).headers?.get("retry-after")).toBe("3");
  });

  it("surfaces a stream dropped mid-way as an error", async () => {
    const stream = client({ scenario: "drop-mid-stream;after=3" }).messages.stream(hello);
    await expect(stream.finalMessage()).rejects.toBeInstanceOf(Error);
  });

  it("omits usage under no-usage", async () => {
    const response = await rawMessages(hello, { "x-fake-scenario": "no-usage" });
    expect(await response.json()).not.toHaveProperty("usage");
  });
});
