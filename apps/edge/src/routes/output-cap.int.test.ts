import type Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

// Issue 30: `max_tokens` against a model's output cap. OpenRouter documents `max_tokens`' maximum as
// the context length minus the prompt; a request within that but above the endpoint's output cap is
// sent with the cap (clients such as @ai-sdk/anthropic ask for 128,000 on models they do not know).
// An OpenAI-format request without `max_tokens` reaches Anthropic with the model's own limit, not 4,096.
// The test catalogue's anthropic/claude-test: 200,000 context, 64,000 output; google/gemini-test: 1,000.

const key = testKey("acct-output-cap");
let edge: EdgeHarness;
let openai: OpenAI;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key] });
  openai = new OpenAI({ apiKey: key.secret, baseURL: `${edge.url}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await edge?.stop();
});

beforeEach(() => {
  for (const fake of [edge.anthropic, edge.gemini, edge.primary]) fake.clearRequests();
});

const hello = [{ role: "user" as const, content: "hello" }];
const sentBody = (fake: EdgeHarness["anthropic"]) => fake.requests().at(-1)?.body as Record<string, unknown>;

describe("max_tokens and the endpoint's output cap", () => {
  it("an OpenAI-format request without max_tokens reaches Anthropic with the model's 64,000, not 4,096", async () => {
    const reply = await openai.chat.completions.create({ model: "anthropic/claude-test", messages: hello });
    expect(reply.choices[0]?.message.content?.length).toBeGreaterThan(0);
    expect(sentBody(edge.anthropic).max_tokens).toBe(64_000);
  });

  it("with reasoning and no max_tokens, the budget fits under the model's cap", async () => {
    await openai.chat.completions.create({
      model: "anthropic/claude-test",
      messages: hello,
      reasoning_effort: "high",
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const body = sentBody(edge.anthropic);
    expect(body.max_tokens).toBe(64_000);
    expect((body.thinking as { budget_tokens: number }).budget_tokens).toBeLessThan(64_000);
  });

  it("chat completions with max_tokens 128,000 on a 64,000-token model: served, sent with 64,000", async () => {
    const reply = await openai.chat.completions.create({
      model: "anthropic/claude-test",
      messages: hello,
      max_tokens: 128_000,
    });
    expect(reply.choices[0]?.finish_reason).toBe("stop");
    expect(sentBody(edge.anthropic).max_tokens).toBe(64_000);
  });

  it("/v1/messages with max_tokens 128,000 (what @ai-sdk/anthropic sends): served, sent with 64,000", async () => {
    // @ai-sdk/anthropic posts with fetch; the official SDK refuses 128,000 without streaming client-side.
    const response = await fetch(`${edge.url}/v1/messages`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-api-key": key.secret,
        "anthropic-version": "2023-06-01",
      },
      body: JSON.stringify({ model: "anthropic/claude-test", max_tokens: 128_000, messages: hello }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Anthropic.Message).stop_reason).toBe("end_turn");
    expect(sentBody(edge.anthropic).max_tokens).toBe(64_000);
  });

  it("Gemini's maxOutputTokens above the endpoint's cap is lowered to it", async () => {
    const response = await fetch(`${edge.url}/v1beta/models/google/gemini-test:generateContent`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-api-key": key.secret },
      body: JSON.stringify({
        contents: [{ role: "user", parts: [{ text: "hello" }] }],
        // Within the test endpoint's 8,000-token context, above its 1,000 output cap.
        generationConfig: { maxOutputTokens: 5_000 },
      }),
    });
    expect(response.status).toBe(200);
    const body = sentBody(edge.gemini);
    expect((body.generationConfig as { maxOutputTokens: number }).maxOutputTokens).toBe(1_000);
  });

  it("max_tokens above the context minus the prompt (OpenRouter's documented maximum) stays the caller's 400", async () => {
    const refused = await openai.chat.completions
      .create({ model: "openai/gpt-4o-mini", messages: hello, max_tokens: 200_000 })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect(edge.primary.requests()).toHaveLength(0);
  });
});
