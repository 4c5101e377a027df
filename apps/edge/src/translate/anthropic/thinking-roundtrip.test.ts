import { describe, expect, it } from "vitest";
import { ZERO_COST } from "../../canonical/cost.js";
import { ZERO_USAGE } from "../../canonical/tokens.js";
import { AnthropicStreamMapper } from "../../providers/anthropic/stream.js";
import { AnthropicStreamRenderer } from "./messages-response.js";

const upstream: [string, Record<string, unknown>][] = [
  [
    "message_start",
    { message: { id: "msg_1", model: "claude", usage: { input_tokens: 5, output_tokens: 1 } } },
  ],
  ["content_block_start", { index: 0, content_block: { type: "thinking", thinking: "", signature: "" } }],
  ["content_block_delta", { index: 0, delta: { type: "thinking_delta", thinking: "Let me" } }],
  ["content_block_delta", { index: 0, delta: { type: "thinking_delta", thinking: " think." } }],
  ["content_block_delta", { index: 0, delta: { type: "signature_delta", signature: "sig-1" } }],
  ["content_block_stop", { index: 0 }],
  ["content_block_start", { index: 1, content_block: { type: "redacted_thinking", data: "opaque" } }],
  ["content_block_stop", { index: 1 }],
  ["content_block_start", { index: 2, content_block: { type: "text", text: "" } }],
  ["content_block_delta", { index: 2, delta: { type: "text_delta", text: "Hi" } }],
  ["content_block_stop", { index: 2 }],
  ["message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 9 } }],
  ["message_stop", {}],
];

describe("Anthropic thinking through the canonical form (Anthropic → OpenAI → Anthropic golden)", () => {
  it("gives an Anthropic client back the same thinking, signature and redacted blocks", () => {
    const mapper = new AnthropicStreamMapper();
    const renderer = new AnthropicStreamRenderer({
      generationId: "gen-1",
      model: "anthropic/claude",
      provider: "anthropic",
      created: 1,
    });
    let out = "";
    for (const [name, data] of upstream)
      for (const event of mapper.map({ event: name, data: JSON.stringify({ type: name, ...data }) }))
        if (event.type === "chunk") out += renderer.chunk(event.chunk);
    out += renderer.end({
      usage: ZERO_USAGE,
      cost: ZERO_COST,
      chargedPico: 0n,
      estimated: false,
      isByok: false,
    });
    const events = out
      .split("\n\n")
      .filter(Boolean)
      .map((frame) => JSON.parse(frame.split("\n")[1]!.slice(6)) as Record<string, unknown>)
      .filter((event) => String(event.type).startsWith("content_block"));
    expect(events).toEqual([
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Let me" } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: " think." } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig-1" } },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: { type: "redacted_thinking", data: "opaque" } },
      { type: "content_block_stop", index: 1 },
      { type: "content_block_start", index: 2, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "Hi" } },
      { type: "content_block_stop", index: 2 },
    ]);
  });
});
