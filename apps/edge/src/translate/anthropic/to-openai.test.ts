import { describe, expect, it } from "vitest";
import { completionFromAnthropic, openAiFinishReason, usageFromAnthropic } from "./to-openai.js";

describe("completionFromAnthropic (Anthropic → OpenAI golden)", () => {
  it("joins text, turns tool_use into tool_calls, keeps thinking with its signature", () => {
    const completion = completionFromAnthropic({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4",
      content: [
        { type: "thinking", thinking: "Let me see.", signature: "sig-1" },
        { type: "text", text: "Let me " },
        { type: "text", text: "check." },
        { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
      ],
      stop_reason: "tool_use",
      usage: {
        input_tokens: 10,
        output_tokens: 20,
        cache_read_input_tokens: 5,
        cache_creation_input_tokens: 2,
      },
    });
    expect(completion).toEqual({
      id: "msg_1",
      object: "chat.completion",
      choices: [
        {
          index: 0,
          logprobs: null,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: "Let me check.",
            refusal: null,
            reasoning: "Let me see.",
            reasoning_details: [
              {
                type: "reasoning.text",
                text: "Let me see.",
                signature: "sig-1",
                format: "anthropic-claude-v1",
                index: 0,
              },
            ],
            tool_calls: [
              {
                id: "toolu_1",
                type: "function",
                function: { name: "get_weather", arguments: '{"city":"Paris"}' },
              },
            ],
          },
        },
      ],
      usage: {
        prompt_tokens: 17,
        completion_tokens: 20,
        total_tokens: 37,
        prompt_tokens_details: { cached_tokens: 5, cache_write_tokens: 2 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
  });

  it("maps every stop reason (wire-formats §4.5)", () => {
    expect(
      [
        "end_turn",
        "stop_sequence",
        "max_tokens",
        "tool_use",
        "refusal",
        "pause_turn",
        "model_context_window_exceeded",
      ].map((reason) => openAiFinishReason(reason)),
    ).toEqual(["stop", "stop", "length", "tool_calls", "content_filter", "stop", "length"]);
    expect(openAiFinishReason(null)).toBeNull();
  });

  it("reports no usage as undefined rather than zero", () => {
    expect(usageFromAnthropic(undefined)).toBeUndefined();
    expect(usageFromAnthropic({})).toBeUndefined();
  });

  it("adds cache reads and writes to the prompt (Anthropic's input_tokens excludes them) and keeps 1-hour writes apart", () => {
    expect(
      usageFromAnthropic({
        input_tokens: 10,
        output_tokens: 5,
        cache_read_input_tokens: 100,
        cache_creation_input_tokens: 300,
        cache_creation: { ephemeral_1h_input_tokens: 200 },
      }),
    ).toEqual({
      promptTokens: 410,
      completionTokens: 5,
      cachedTokens: 100,
      cacheWriteTokens: 300,
      reasoningTokens: 0,
      cacheWriteLongTokens: 200,
    });
  });
});
