import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { ZERO_COST } from "../../canonical/cost.js";
import type { UsageRender } from "../openai/usage.js";
import { AnthropicStreamRenderer, renderMessage } from "./messages-response.js";

const identity = { generationId: "gen-1", model: "openai/gpt-4o", provider: "openai", created: 1 };
const usage: UsageRender = {
  usage: { promptTokens: 20, completionTokens: 7, cachedTokens: 5, cacheWriteTokens: 2, reasoningTokens: 0 },
  cost: ZERO_COST,
  chargedPico: 0n,
  estimated: false,
  isByok: false,
};

function events(text: string): { event: string; data: Record<string, unknown> }[] {
  return text
    .split("\n\n")
    .filter(Boolean)
    .map((frame) => {
      const [eventLine, dataLine] = frame.split("\n");
      return { event: eventLine!.slice(7), data: JSON.parse(dataLine!.slice(6)) };
    });
}

describe("renderMessage (OpenAI → Anthropic golden)", () => {
  it("renders text, tool calls and usage in Anthropic's accounting", () => {
    const message = renderMessage(
      {
        choices: [
          {
            index: 0,
            finish_reason: "tool_calls",
            message: {
              content: "Checking.",
              tool_calls: [
                { id: "call_1", type: "function", function: { name: "f", arguments: '{"a":1}' } },
                { id: "call_2", type: "function", function: { name: "g", arguments: "not json" } },
              ],
            },
          },
        ],
      },
      identity,
      usage,
    );
    expect(message).toEqual({
      id: "gen-1",
      type: "message",
      role: "assistant",
      model: "openai/gpt-4o",
      provider: "openai",
      content: [
        { type: "text", text: "Checking." },
        { type: "tool_use", id: "call_1", name: "f", input: { a: 1 } },
        { type: "tool_use", id: "call_2", name: "g", input: { _raw: "not json" } },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: {
        input_tokens: 13,
        output_tokens: 7,
        cache_creation_input_tokens: 2,
        cache_read_input_tokens: 5,
        cost: 0,
        estimated: false,
      },
    });
  });
});

describe("AnthropicStreamRenderer (OpenAI chunks → Anthropic events golden)", () => {
  it("emits message_start, ordered blocks, message_delta with usage and message_stop", () => {
    const renderer = new AnthropicStreamRenderer(identity);
    let out = renderer.chunk({ choices: [{ index: 0, delta: { role: "assistant", content: "" } }] });
    out += renderer.chunk({ choices: [{ index: 0, delta: { content: "Hel" } }] });
    out += renderer.chunk({ choices: [{ index: 0, delta: { content: "lo" } }] });
    out += renderer.chunk({
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              { index: 0, id: "call_1", type: "function", function: { name: "f", arguments: "" } },
            ],
          },
        },
      ],
    });
    out += renderer.chunk({
      choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] } }],
    });
    out += renderer.chunk({
      choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: "1}" } }] } }],
    });
    out += renderer.chunk({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] });
    out += renderer.end(usage);
    expect(events(out)).toEqual([
      {
        event: "message_start",
        data: {
          type: "message_start",
          message: {
            id: "gen-1",
            type: "message",
            role: "assistant",
            model: "openai/gpt-4o",
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: {
              input_tokens: 0,
              output_tokens: 0,
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: 0,
            },
          },
        },
      },
      {
        event: "content_block_start",
        data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      },
      {
        event: "content_block_delta",
        data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } },
      },
      {
        event: "content_block_delta",
        data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "lo" } },
      },
      { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
      {
        event: "content_block_start",
        data: {
          type: "content_block_start",
          index: 1,
          content_block: { type: "tool_use", id: "call_1", name: "f", input: {} },
        },
      },
      {
        event: "content_block_delta",
        data: {
          type: "content_block_delta",
          index: 1,
          delta: { type: "input_json_delta", partial_json: '{"a":' },
        },
      },
      {
        event: "content_block_delta",
        data: {
          type: "content_block_delta",
          index: 1,
          delta: { type: "input_json_delta", partial_json: "1}" },
        },
      },
      { event: "content_block_stop", data: { type: "content_block_stop", index: 1 } },
      {
        event: "message_delta",
        data: {
          type: "message_delta",
          delta: { stop_reason: "tool_use", stop_sequence: null },
          usage: {
            input_tokens: 13,
            output_tokens: 7,
            cache_creation_input_tokens: 2,
            cache_read_input_tokens: 5,
            cost: 0,
            estimated: false,
          },
        },
      },
      { event: "message_stop", data: { type: "message_stop" } },
    ]);
    expect(renderer.finishReason()).toBe("tool_calls");
  });

  it("ends with event: error and nothing after it", () => {
    const renderer = new AnthropicStreamRenderer(identity);
    const out =
      renderer.chunk({ choices: [{ index: 0, delta: { content: "x" } }] }) +
      renderer.error(new GatewayError("upstream", "boom", { upstreamCode: "protocol" }));
    expect(events(out).at(-1)).toEqual({
      event: "error",
      data: { type: "error", error: { type: "api_error", message: "boom" } },
    });
    expect(renderer.end(usage)).toBe("");
  });
});
