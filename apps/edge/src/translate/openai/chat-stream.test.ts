import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { ZERO_COST } from "../../canonical/cost.js";
import { SSE_DONE } from "../sse.js";
import { ChatStreamRewriter } from "./chat-stream.js";

const identity = { generationId: "gen-1", model: "openai/gpt-4o-mini", provider: "openai", created: 100 };

function frame(text: string): Record<string, unknown> {
  expect(text.startsWith("data: ")).toBe(true);
  expect(text.endsWith("\n\n")).toBe(true);
  return JSON.parse(text.slice(6, -2));
}

describe("ChatStreamRewriter", () => {
  it("puts our id, model and provider on every chunk and strips upstream usage", () => {
    const rewriter = new ChatStreamRewriter(identity);
    const out = frame(
      rewriter.chunk({
        id: "chatcmpl-up",
        object: "chat.completion.chunk",
        created: 555,
        model: "gpt-4o-mini-2024-07-18",
        system_fingerprint: "fp_1",
        choices: [{ index: 0, delta: { role: "assistant", content: "Hel" }, finish_reason: null }],
        usage: null,
      }),
    );
    expect(out).toEqual({
      id: "gen-1",
      object: "chat.completion.chunk",
      created: 555,
      model: "openai/gpt-4o-mini",
      provider: "openai",
      system_fingerprint: "fp_1",
      choices: [{ index: 0, delta: { role: "assistant", content: "Hel" }, finish_reason: null }],
    });
    expect(rewriter.upstreamId()).toBe("chatcmpl-up");
  });

  it("leaves system_fingerprint out until the provider sends one, then carries its value (no null: OpenRouter's SDK rejects it)", () => {
    const rewriter = new ChatStreamRewriter(identity);
    expect(frame(rewriter.chunk({ choices: [{ index: 0, delta: { content: "a" } }] }))).not.toHaveProperty(
      "system_fingerprint",
    );
    rewriter.chunk({ system_fingerprint: "fp_9", choices: [{ index: 0, delta: { content: "b" } }] });
    expect(
      frame(rewriter.chunk({ choices: [{ index: 0, delta: { content: "c" } }] })).system_fingerprint,
    ).toBe("fp_9");
    const closing = rewriter.end({
      usage: {
        promptTokens: 1,
        completionTokens: 1,
        cachedTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
      },
      cost: ZERO_COST,
      chargedPico: 0n,
      estimated: false,
      isByok: false,
    });
    expect(frame(closing.slice(0, -SSE_DONE.length)).system_fingerprint).toBe("fp_9");
  });

  it("remembers the finish reason and the generated text, tool calls included", () => {
    const rewriter = new ChatStreamRewriter(identity);
    rewriter.chunk({ choices: [{ index: 0, delta: { content: "Hel" } }] });
    rewriter.chunk({
      choices: [
        { index: 0, delta: { tool_calls: [{ function: { name: "get_weather", arguments: '{"city":' } }] } },
      ],
    });
    rewriter.chunk({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] });
    expect(rewriter.finishReason()).toBe("tool_calls");
    expect(rewriter.outputTexts()).toEqual(["Hel", "get_weather", '{"city":']);
  });

  it("ends with our usage chunk (choices: [], cost in USD) before [DONE]", () => {
    const rewriter = new ChatStreamRewriter(identity);
    const closing = rewriter.end({
      usage: {
        promptTokens: 10,
        completionTokens: 5,
        cachedTokens: 2,
        cacheWriteTokens: 0,
        reasoningTokens: 1,
      },
      cost: { promptPico: 1_500_000n, completionPico: 3_000_000n, requestPico: 0n, totalPico: 4_500_000n },
      chargedPico: 4_500_000n,
      estimated: false,
      isByok: false,
    });
    expect(closing.endsWith(SSE_DONE)).toBe(true);
    const usage = frame(closing.slice(0, -SSE_DONE.length));
    expect(usage).toEqual({
      id: "gen-1",
      object: "chat.completion.chunk",
      created: 100,
      model: "openai/gpt-4o-mini",
      provider: "openai",
      choices: [],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 5,
        total_tokens: 15,
        prompt_tokens_details: { cached_tokens: 2, cache_write_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 1, audio_tokens: 0 },
        cost: 0.0000045,
        is_byok: false,
        estimated: false,
        cost_details: {
          upstream_inference_cost: 0.0000045,
          upstream_inference_prompt_cost: 0.0000015,
          upstream_inference_completions_cost: 0.000003,
        },
      },
    });
    expect(SSE_DONE).toBe("data: [DONE]\n\n");
  });

  it("ends a broken stream with an error chunk that openai-node throws on", () => {
    const rewriter = new ChatStreamRewriter(identity);
    const failure = new GatewayError("upstream", "the provider failed", { code: "upstream_error" });
    const error = frame(rewriter.error(failure));
    expect(error.error).toEqual({
      message: "the provider failed",
      type: "upstream_error",
      code: 502,
      metadata: { error_type: "server", reason: "upstream_error" },
    });
    expect(error.choices).toEqual([{ index: 0, delta: { content: "" }, finish_reason: "error" }]);
    const closing = rewriter.end({
      usage: {
        promptTokens: 0,
        completionTokens: 0,
        cachedTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
      },
      cost: ZERO_COST,
      estimated: false,
      chargedPico: 0n,
      isByok: false,
    });
    expect(frame(closing.slice(0, -SSE_DONE.length)).choices).toEqual([]);
  });
});
