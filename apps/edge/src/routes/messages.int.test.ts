import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";
import { usageEventFor } from "../test/usage.js";

const key = testKey("acct-messages");
let edge: EdgeHarness;
let client: Anthropic;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key], env: { BODY_LIMIT: "64kb" }, settings: { keepAliveMs: 100 } });
  client = new Anthropic({ apiKey: key.secret, baseURL: edge.url, maxRetries: 0 });
});

afterAll(async () => {
  await edge?.stop();
});

beforeEach(() => {
  for (const fake of [edge.primary, edge.backup, edge.anthropic, edge.gemini]) {
    fake.resetScenario();
    fake.clearRequests();
  }
});

const weather: Anthropic.Tool = {
  name: "get_weather",
  description: "Current weather",
  input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

// One model per provider family: Anthropic (by its short native name), OpenAI, Gemini, OpenAI-compatible.
const families = [
  { family: "Anthropic", model: "claude-test", id: "anthropic/claude-test" },
  { family: "OpenAI", model: "openai/gpt-4o-mini", id: "openai/gpt-4o-mini" },
  { family: "Gemini", model: "google/gemini-test", id: "google/gemini-test" },
  { family: "OpenAI-compatible (groq)", model: "test/backup-only", id: "test/backup-only" },
];

describe.each(families)("@anthropic-ai/sdk → /v1/messages → $family", ({ model, id }) => {
  it("answers a message with usage, metered as api_type messages", async () => {
    const { data, response } = await client.messages
      .create({
        model,
        max_tokens: 200,
        system: "Be terse.",
        messages: [{ role: "user", content: "hello there" }],
      })
      .withResponse();
    expect(data.type).toBe("message");
    expect(data.content).toEqual([{ type: "text", text: "Echo: hello there" }]);
    expect(data.stop_reason).toBe("end_turn");
    expect(data.model).toBe(id);
    expect(data.usage.input_tokens).toBeGreaterThan(0);
    expect(data.usage.output_tokens).toBeGreaterThan(0);
    const generationId = response.headers.get("x-generation-id")!;
    expect(data.id).toBe(generationId);
    const event = await usageEventFor(edge, generationId);
    expect(event.apiType).toBe("messages");
    expect(event.model).toBe(id);
    expect(event.estimated).toBe(false);
    expect(event.completionTokens).toBe(data.usage.output_tokens);
  });

  it("streams the event sequence the SDK assembles into the same message", async () => {
    const stream = client.messages.stream({
      model,
      max_tokens: 200,
      messages: [{ role: "user", content: "stream please" }],
    });
    const types: string[] = [];
    stream.on("streamEvent", (event) => types.push(event.type));
    const message = await stream.finalMessage();
    expect(message.content).toEqual([{ type: "text", text: "Echo: stream please" }]);
    expect(message.stop_reason).toBe("end_turn");
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(types[0]).toBe("message_start");
    expect(types[1]).toBe("content_block_start");
    expect(types.slice(-3)).toEqual(["content_block_stop", "message_delta", "message_stop"]);
  });

  it("calls a tool and reads its result back, streamed and not", async () => {
    const ask: Anthropic.MessageParam = { role: "user", content: "What is the weather in Rome?" };
    const first = await client.messages.create({ model, max_tokens: 200, messages: [ask], tools: [weather] });
    expect(first.stop_reason).toBe("tool_use");
    const call = first.content.find((block) => block.type === "tool_use");
    expect(call).toMatchObject({ name: "get_weather", input: { city: "Rome" } });
    const streamed = await client.messages
      .stream({ model, max_tokens: 200, messages: [ask], tools: [weather] })
      .finalMessage();
    expect(streamed.content.find((block) => block.type === "tool_use")).toMatchObject({
      name: "get_weather",
      input: { city: "Rome" },
    });
    const second = await client.messages.create({
      model,
      max_tokens: 200,
      tools: [weather],
      messages: [
        ask,
        { role: "assistant", content: first.content },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: call?.type === "tool_use" ? call.id : "", content: "21C" },
          ],
        },
      ],
    });
    expect(second.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("21C") });
  });
});

describe("/v1/messages details", () => {
  it("accepts Authorization: Bearer (authToken) and ?beta=true", async () => {
    const bearer = new Anthropic({ authToken: key.secret, apiKey: null, baseURL: edge.url, maxRetries: 0 });
    const message = await bearer.beta.messages.create({
      model: "anthropic/claude-test",
      max_tokens: 50,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(message.content[0]).toMatchObject({ text: "Echo: hi" });
  });

  it("counts tokens without calling a provider", async () => {
    const counted = await client.messages.countTokens({
      model: "claude-test",
      system: "Be terse.",
      messages: [{ role: "user", content: "How many tokens is this sentence?" }],
    });
    expect(counted.input_tokens).toBeGreaterThan(5);
    expect(counted.input_tokens).toBeLessThan(40);
    expect(edge.anthropic.requests()).toHaveLength(0);
  });

  it("answers bad input in Anthropic's error shape with the right status", async () => {
    const raw = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${edge.url}/v1/messages`, {
        method: "POST",
        headers: { "x-api-key": key.secret, "content-type": "application/json", ...headers },
        body,
      });
    const missing = await raw(
      JSON.stringify({ model: "claude-test", messages: [{ role: "user", content: "x" }] }),
    );
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: expect.stringMatching(/^max_tokens/) },
    });
    const malformed = await raw("{nope");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    const wrongType = await raw(JSON.stringify({ model: "claude-test", max_tokens: "ten", messages: [] }));
    expect(wrongType.status).toBe(400);
    const big = await raw(
      JSON.stringify({
        model: "claude-test",
        max_tokens: 5,
        messages: [{ role: "user", content: "x".repeat(70_000) }],
      }),
    );
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ type: "error", error: { type: "request_too_large" } });
    await expect(
      client.messages.create({
        model: "nope-model",
        max_tokens: 5,
        messages: [{ role: "user", content: "x" }],
      }),
    ).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    const stranger = new Anthropic({ apiKey: "lr_live_nope", baseURL: edge.url, maxRetries: 0 });
    const denied = await stranger.messages
      .create({ model: "claude-test", max_tokens: 5, messages: [{ role: "user", content: "x" }] })
      .catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((denied as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      type: "error",
      error: { type: "authentication_error" },
    });
  });

  it("refuses blocks it cannot translate with a 400 naming them", async () => {
    const error = await client.messages
      .create({
        model: "openai/gpt-4o-mini",
        max_tokens: 5,
        messages: [
          {
            role: "user",
            // Documents translate (issue 32); a search result block has no form in other formats.
            content: [{ type: "search_result", source: "https://x.test", title: "t", content: [] }],
          },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toMatch(/messages\[0\]\.content\[0\] \(type search_result\)/);
  });

  it("maps an upstream error to Anthropic's shape, keeping the status class", async () => {
    edge.anthropic.setScenario({ name: "fail", status: 429 });
    const limited = await client.messages
      .create({ model: "claude-test", max_tokens: 5, messages: [{ role: "user", content: "x" }] })
      .catch((caught: unknown) => caught);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    edge.anthropic.setScenario({ name: "fail", status: 500 });
    const failed = await client.messages
      .create({ model: "claude-test", max_tokens: 5, messages: [{ role: "user", content: "x" }] })
      .catch((caught: unknown) => caught);
    expect(failed).toMatchObject({ status: 502 });
  });

  it("ends a stream that breaks after the first byte with event: error", async () => {
    edge.anthropic.setScenario({ name: "drop-mid-stream", after: 3 });
    const stream = client.messages.stream({
      model: "claude-test",
      max_tokens: 200,
      messages: [{ role: "user", content: "a somewhat longer message to stream" }],
    });
    await expect(stream.finalMessage()).rejects.toThrow();
  });
});
