import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EdgeHarness, FAKE_KEY, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

// Issue 12: native to native is a pass-through. The strict fakes refuse what the real APIs refuse, so a
// body the gateway rewrote (a flattened system array, a lost cache_control, a dropped beta header)
// fails here; the fakes' request logs show exactly what arrived.

const key = testKey("acct-native-pass-through");
let edge: EdgeHarness;
let anthropic: Anthropic;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key] });
  anthropic = new Anthropic({ apiKey: key.secret, baseURL: edge.url, maxRetries: 0 });
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

const lastBody = (fake: EdgeHarness["anthropic"]) => fake.requests().at(-1)?.body as Record<string, unknown>;
const lastHeaders = (fake: EdgeHarness["anthropic"]) => fake.requests().at(-1)?.headers ?? {};
const system = "You answer tersely. ".repeat(30); // 600 characters = 150 tokens by the fake's count

describe("Anthropic /v1/messages → Anthropic", () => {
  it("sends the caller's body as sent: system blocks, cache_control, metadata, only the model replaced", async () => {
    const body = {
      model: "anthropic/claude-test",
      max_tokens: 64,
      system: [
        {
          type: "text" as const,
          text: system,
          cache_control: { type: "ephemeral" as const, ttl: "1h" as const },
        },
      ],
      messages: [
        {
          role: "user" as const,
          content: [{ type: "text" as const, text: "hi", cache_control: { type: "ephemeral" as const } }],
        },
      ],
      metadata: { user_id: "u-1" },
      top_k: 3,
      stop_sequences: ["STOP"],
    };
    await anthropic.messages.create(body);
    expect(lastBody(edge.anthropic)).toEqual({ ...body, model: "claude-test" });
  });

  it("forwards anthropic-beta and the caller's anthropic-version, never the caller's key", async () => {
    await anthropic.beta.messages.create({
      model: "anthropic/claude-test",
      max_tokens: 32,
      betas: ["context-management-2025-06-27"],
      messages: [{ role: "user", content: "hi" }],
    });
    const headers = lastHeaders(edge.anthropic);
    expect(headers["anthropic-beta"]).toBe("context-management-2025-06-27");
    expect(headers["x-api-key"]).toBe(FAKE_KEY);
    expect(JSON.stringify(headers)).not.toContain(key.secret);
  });

  it("passes a beta-only field the gateway cannot translate to Anthropic, with its beta header", async () => {
    const response = await fetch(`${edge.url}/v1/messages`, {
      method: "POST",
      headers: {
        "x-api-key": key.secret,
        "anthropic-version": "2023-01-01",
        "anthropic-beta": "context-management-2025-06-27",
        "content-type": "application/json",
      },
      body: JSON.stringify({
        model: "anthropic/claude-test",
        max_tokens: 32,
        context_management: { edits: [{ type: "clear_tool_uses_20250919" }] },
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    expect(response.status).toBe(200);
    expect(lastBody(edge.anthropic).context_management).toEqual({
      edits: [{ type: "clear_tool_uses_20250919" }],
    });
  });

  it("refuses that field by name when the answer would come from another format", async () => {
    const response = await fetch(`${edge.url}/v1/messages`, {
      method: "POST",
      headers: {
        "x-api-key": key.secret,
        "anthropic-version": "2023-06-01",
        "content-type": "application/json",
      },
      body: JSON.stringify({
        model: "openai/gpt-4o-mini",
        max_tokens: 32,
        context_management: { edits: [] },
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    expect(response.status).toBe(400);
    const error = (await response.json()) as { type: string; error: { type: string; message: string } };
    expect(error.type).toBe("error");
    expect(error.error.message).toContain("context_management");
    expect(edge.primary.requests()).toEqual([]);
  });

  it("keeps thinking and its sampling exactly as sent (SDK, streamed)", async () => {
    const stream = anthropic.messages.stream({
      model: "anthropic/claude-test",
      max_tokens: 2048,
      thinking: { type: "enabled", budget_tokens: 1024 },
      temperature: 1,
      top_p: 0.96,
      messages: [{ role: "user", content: "think" }],
    });
    const message = await stream.finalMessage();
    expect(message.content.map((block) => block.type)).toEqual(["thinking", "text"]);
    expect(lastBody(edge.anthropic)).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 1024 },
      temperature: 1,
      top_p: 0.96,
      stream: true,
    });
  });

  it("meters the provider's cached tokens: written on the first call, read on the repeat", async () => {
    edge.anthropic.setScenario({ name: "cache" });
    const cached = "You answer tersely. ".repeat(210); // 4,200 characters = 1,050 tokens
    const ask = (text: string) =>
      anthropic.messages.create({
        model: "anthropic/claude-test",
        max_tokens: 32,
        system: [{ type: "text", text: cached, cache_control: { type: "ephemeral" } }],
        messages: [{ role: "user", content: text }],
      });
    const first = await ask("first");
    // The system block is 1,050 tokens (Anthropic caches no prefix under 1,024); "first" / "second"
    // 2 tokens + 3 for the message.
    expect(first.usage).toMatchObject({
      cache_creation_input_tokens: 1050,
      cache_read_input_tokens: 0,
      input_tokens: 5,
    });
    const second = await ask("second");
    expect(second.usage).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 1050,
      input_tokens: 5,
    });
    const sent = edge.anthropic.requests().map((request) => request.body as { system: unknown });
    expect(sent[0]?.system).toEqual(sent[1]?.system);
  });
});

describe("request ids", () => {
  it("gives every response x-request-id, and the Anthropic SDK its request_id", async () => {
    const { request_id, response } = await anthropic.messages
      .create({ model: "anthropic/claude-test", max_tokens: 16, messages: [{ role: "user", content: "hi" }] })
      .withResponse();
    expect(request_id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(response.headers.get("x-request-id")).toBe(request_id);
    const refused = await fetch(`${edge.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "x-request-id": "caller-trace-1" },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("x-request-id")).toBe("caller-trace-1");
    expect(refused.headers.get("request-id")).toBeNull();
  });

  it("puts request_id in an Anthropic error body refused before admission, as Anthropic's does", async () => {
    const refused = await fetch(`${edge.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "lr_live_not-a-key", "content-type": "application/json" },
      body: JSON.stringify({ model: "anthropic/claude-test", max_tokens: 8, messages: [] }),
    });
    expect(refused.status).toBe(401);
    const body = (await refused.json()) as { type: string; error: { type: string }; request_id?: string };
    expect(body.type).toBe("error");
    expect(body.error.type).toBe("authentication_error");
    expect(body.request_id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(refused.headers.get("request-id")).toBe(body.request_id);
    // The SDK reads the same id from the header into the error it raises.
    const stranger = new Anthropic({ apiKey: "lr_live_not-a-key", baseURL: edge.url, maxRetries: 0 });
    const error = await stranger.messages
      .create({ model: "anthropic/claude-test", max_tokens: 8, messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((error as InstanceType<typeof Anthropic.AuthenticationError>).requestID).toMatch(/^req_/);
  });
});

describe("Gemini surface → Google", () => {
  it("sends the body as sent on the caller's API version, snake_case and safety settings included", async () => {
    const body = {
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      safety_settings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }],
      generationConfig: {
        maxOutputTokens: 64,
        thinkingConfig: { thinkingBudget: 0, includeThoughts: false },
      },
    };
    for (const version of ["v1beta", "v1"]) {
      const response = await fetch(`${edge.url}/${version}/models/google/gemini-test:generateContent`, {
        method: "POST",
        headers: { "x-goog-api-key": key.secret, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      const sent = edge.gemini.requests().at(-1);
      expect(sent?.path).toBe(`/${version}/models/gemini-2.5-flash:generateContent`);
      expect(sent?.body).toEqual(body);
      expect(sent?.headers["x-goog-api-key"]).toBe(FAKE_KEY);
    }
  });

  it("streams through @google/genai with the body unchanged", async () => {
    const genai = new GoogleGenAI({ apiKey: key.secret, httpOptions: { baseUrl: edge.url } });
    let text = "";
    const stream = await genai.models.generateContentStream({
      model: "google/gemini-test",
      contents: "stream please",
      config: { temperature: 0.3, thinkingConfig: { thinkingBudget: -1 } },
    });
    for await (const chunk of stream) text += chunk.text ?? "";
    expect(text).toBe("Echo: stream please");
    const sent = edge.gemini.requests().at(-1);
    expect(sent?.path).toBe("/v1/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    expect(sent?.body).toMatchObject({
      generationConfig: { temperature: 0.3, thinkingConfig: { thinkingBudget: -1 } },
    });
  });
});

describe("chat completions → OpenAI", () => {
  // Fields outside the endpoint's supported_parameters are dropped as OpenRouter drops them (planning).
  it("forwards OpenAI-Beta and the caller's fields, with usage always requested on streams", async () => {
    const openai = new OpenAI({
      apiKey: key.secret,
      baseURL: `${edge.url}/v1`,
      maxRetries: 0,
      defaultHeaders: { "OpenAI-Beta": "assistants=v2", "anthropic-beta": "not-for-openai" },
    });
    const stream = await openai.chat.completions.create({
      model: "openai/gpt-4o-mini",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      temperature: 0.25,
      max_tokens: 50,
    });
    for await (const _ of stream) {
      // drain
    }
    const sent = edge.primary.requests().at(-1);
    expect(sent?.headers["openai-beta"]).toBe("assistants=v2");
    expect(sent?.headers["anthropic-beta"]).toBeUndefined();
    expect(sent?.headers.authorization).toBe(`Bearer ${FAKE_KEY}`);
    expect(sent?.body).toMatchObject({
      temperature: 0.25,
      max_tokens: 50,
      stream_options: { include_usage: true },
    });
  });
});
