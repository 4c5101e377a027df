import { describe, expect, it } from "vitest";
import { completionFromGemini, GeminiChunkMapper } from "./to-openai.js";

describe("completionFromGemini (Gemini → OpenAI golden)", () => {
  it("maps text, thoughts, function calls with synthesized ids and signatures, usage", () => {
    const completion = completionFromGemini({
      responseId: "r1",
      modelVersion: "gemini-2.5-flash",
      candidates: [
        {
          index: 0,
          finishReason: "STOP",
          content: {
            role: "model",
            parts: [
              { text: "thinking", thought: true },
              { text: "Sure." },
              { functionCall: { name: "get_weather", args: { city: "Paris" } }, thoughtSignature: "sig" },
            ],
          },
        },
      ],
      usageMetadata: {
        promptTokenCount: 10,
        candidatesTokenCount: 5,
        thoughtsTokenCount: 3,
        cachedContentTokenCount: 2,
      },
    });
    expect(completion).toEqual({
      id: "r1",
      object: "chat.completion",
      choices: [
        {
          index: 0,
          logprobs: null,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: "Sure.",
            refusal: null,
            reasoning: "thinking",
            tool_calls: [
              {
                id: "call_r1_0",
                type: "function",
                function: { name: "get_weather", arguments: '{"city":"Paris"}' },
              },
            ],
            reasoning_details: [
              { type: "reasoning.encrypted", id: "call_r1_0", data: "sig", format: "google-gemini-v1" },
            ],
          },
        },
      ],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 8,
        total_tokens: 18,
        prompt_tokens_details: { cached_tokens: 2, cache_write_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 3 },
      },
    });
  });

  it("maps finish reasons and a blocked prompt", () => {
    const finish = (finishReason: string) =>
      completionFromGemini({ candidates: [{ finishReason, content: { parts: [{ text: "x" }] } }] }).choices[0]
        ?.finish_reason;
    expect(["STOP", "MAX_TOKENS", "SAFETY", "IMAGE_SAFETY", "OTHER"].map(finish)).toEqual([
      "stop",
      "length",
      "content_filter",
      "content_filter",
      "stop",
    ]);
    expect(
      completionFromGemini({ promptFeedback: { blockReason: "SAFETY" } }).choices[0]?.finish_reason,
    ).toBe("content_filter");
  });
});

describe("GeminiChunkMapper (Gemini frames → OpenAI chunks golden)", () => {
  it("sends the role once, numbers tool calls across frames and keeps the last usage", () => {
    const mapper = new GeminiChunkMapper();
    const first = mapper.map({ responseId: "r", candidates: [{ content: { parts: [{ text: "Hel" }] } }] });
    const second = mapper.map({
      responseId: "r",
      candidates: [
        { content: { parts: [{ text: "lo" }, { functionCall: { id: "f1", name: "f", args: {} } }] } },
      ],
      usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1 },
    });
    const third = mapper.map({
      responseId: "r",
      candidates: [
        { content: { parts: [{ functionCall: { name: "g", args: { a: 1 } } }] }, finishReason: "STOP" },
      ],
      usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 6 },
    });
    expect(first[0]?.choices?.[0]).toEqual({
      index: 0,
      delta: { role: "assistant", content: "Hel" },
      finish_reason: null,
    });
    expect(second[0]?.choices?.[0]?.delta).toEqual({
      content: "lo",
      tool_calls: [{ index: 0, id: "f1", type: "function", function: { name: "f", arguments: "{}" } }],
    });
    expect(third[0]?.choices?.[0]).toEqual({
      index: 0,
      delta: {
        tool_calls: [
          { index: 1, id: "call_stream_0", type: "function", function: { name: "g", arguments: '{"a":1}' } },
        ],
      },
      finish_reason: "tool_calls",
    });
    expect(mapper.finished).toBe(true);
    expect(mapper.usage).toEqual({
      promptTokens: 4,
      completionTokens: 6,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
  });
});
