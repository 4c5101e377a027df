import { describe, expect, it } from "vitest";
import { parseChatRequest } from "../../canonical/chat-request.js";
import { chatRequestBody } from "../../providers/openai-compatible/chat.js";
import { anthropicRequestBody } from "../anthropic/from-openai.js";
import { chatRequestFromMessages, parseMessagesRequest } from "../anthropic/messages-request.js";
import { geminiRequestBody } from "../gemini/from-openai.js";
import { chatRequestFromGemini, parseGenerateContent } from "../gemini/generate-request.js";
import { reasoningBudget } from "./reasoning.js";

const chat = (extra: Record<string, unknown>) =>
  parseChatRequest({ model: "m", messages: [{ role: "user", content: "think" }], ...extra });

describe("reasoning requests across formats (golden)", () => {
  it("reads OpenRouter's reasoning object and OpenAI's reasoning_effort", () => {
    expect(reasoningBudget(chat({ reasoning: { max_tokens: 2000 } }))).toBe(2000);
    expect(reasoningBudget(chat({ reasoning: { effort: "high" } }))).toBe(16_384);
    expect(reasoningBudget(chat({ reasoning_effort: "low" }))).toBe(1024);
    expect(reasoningBudget(chat({ reasoning: { enabled: false, effort: "high" } }))).toBeUndefined();
    expect(reasoningBudget(chat({}))).toBeUndefined();
  });

  it("becomes Anthropic extended thinking below max_tokens, with room for the answer when none was asked", () => {
    const capped = anthropicRequestBody(
      chat({ reasoning: { max_tokens: 2000 }, max_tokens: 1500 }),
      "c",
      false,
    );
    expect(capped.thinking).toEqual({ type: "enabled", budget_tokens: 1499 });
    expect(capped.max_tokens).toBe(1500);
    const open = anthropicRequestBody(chat({ reasoning: { max_tokens: 2000 } }), "c", false);
    expect(open.thinking).toEqual({ type: "enabled", budget_tokens: 2000 });
    expect(open.max_tokens).toBe(2000 + 4096);
    expect(() =>
      anthropicRequestBody(chat({ reasoning: { max_tokens: 2000 }, max_tokens: 500 }), "c", false),
    ).toThrow(/thinking budget is at least 1024/);
    expect(anthropicRequestBody(chat({ reasoning: { max_tokens: 10 } }), "c", false).thinking).toEqual({
      type: "enabled",
      budget_tokens: 1024,
    });
  });

  it("becomes Gemini's thinkingConfig", () => {
    expect(
      (geminiRequestBody(chat({ reasoning: { effort: "low" } })).generationConfig as Record<string, unknown>)
        .thinkingConfig,
    ).toEqual({
      thinkingBudget: 1024,
      includeThoughts: true,
    });
  });

  it("becomes reasoning_effort for OpenAI-compatible hosts, except OpenRouter which takes the object", () => {
    const request = chat({ reasoning: { max_tokens: 5000 } });
    const plain = JSON.parse(chatRequestBody(request, "m", false));
    expect(plain.reasoning_effort).toBe("high");
    expect("reasoning" in plain).toBe(false);
    expect(JSON.parse(chatRequestBody(request, "m", false, true, true)).reasoning).toEqual({
      max_tokens: 5000,
    });
  });

  it("comes in from Anthropic's thinking and Gemini's thinkingBudget", () => {
    const messages = parseMessagesRequest({
      model: "m",
      max_tokens: 4000,
      thinking: { type: "enabled", budget_tokens: 2048 },
      messages: [{ role: "user", content: "x" }],
    });
    expect(chatRequestFromMessages(messages).reasoning).toEqual({ max_tokens: 2048 });
    const dynamic = parseGenerateContent({
      contents: [{ parts: [{ text: "x" }] }],
      generationConfig: { thinkingConfig: { thinkingBudget: -1 } },
    });
    // Gemini returns thoughts only with includeThoughts: true, so without it they are excluded.
    expect(chatRequestFromGemini(dynamic, "m", false).reasoning).toEqual({ enabled: true, exclude: true });
  });
});
