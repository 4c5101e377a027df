import { describe, expect, it } from "vitest";
import { UpstreamHttp } from "../http.js";
import type { StreamEvent } from "../types.js";
import { encodeEventMessage } from "./frames.js";
import { bedrockStreamEvents, converseStreamMapper, invokeStreamMapper } from "./stream.js";

const http = new UpstreamHttp("http://127.0.0.1:9", { connectMs: 1_000, firstByteMs: 1_000, totalMs: 1_000 });
const event = (type: string, payload: unknown) =>
  encodeEventMessage({ ":event-type": type, ":message-type": "event" }, JSON.stringify(payload));
const chunk = (anthropicEvent: unknown) =>
  event("chunk", { bytes: Buffer.from(JSON.stringify(anthropicEvent)).toString("base64") });

async function collect(frames: Uint8Array[], mapper = converseStreamMapper("req-1")): Promise<StreamEvent[]> {
  async function* body() {
    yield* frames;
  }
  const events: StreamEvent[] = [];
  for await (const entry of bedrockStreamEvents(body(), http.signals(new AbortController().signal), mapper))
    events.push(entry);
  return events;
}

describe("Bedrock streams → canonical events", () => {
  it("maps ConverseStream's tool use and usage (cache reads counted in the prompt)", async () => {
    const events = await collect([
      event("messageStart", { role: "assistant" }),
      event("contentBlockStart", {
        contentBlockIndex: 0,
        start: { toolUse: { toolUseId: "t1", name: "get" } },
      }),
      event("contentBlockDelta", { contentBlockIndex: 0, delta: { toolUse: { input: '{"a":' } } }),
      event("contentBlockDelta", { contentBlockIndex: 0, delta: { toolUse: { input: "1}" } } }),
      event("messageStop", { stopReason: "tool_use" }),
      event("metadata", { usage: { inputTokens: 5, outputTokens: 3, cacheReadInputTokens: 10 } }),
    ]);
    const args = events.flatMap((entry) =>
      entry.type === "chunk"
        ? (entry.chunk.choices?.[0]?.delta?.tool_calls ?? []).map((call) => call.function?.arguments ?? "")
        : [],
    );
    expect(args.join("")).toBe('{"a":1}');
    expect(events.at(-2)).toMatchObject({
      type: "chunk",
      chunk: { choices: [{ finish_reason: "tool_calls" }] },
    });
    expect(events.at(-1)).toEqual({
      type: "usage",
      usage: {
        promptTokens: 15,
        completionTokens: 3,
        cachedTokens: 10,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
      },
    });
  });

  it("unwraps InvokeModel's chunk bytes into Anthropic's events", async () => {
    const events = await collect(
      [
        chunk({ type: "message_start", message: { id: "m1", usage: { input_tokens: 4, output_tokens: 1 } } }),
        chunk({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hi" } }),
        chunk({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } }),
        chunk({ type: "message_stop" }),
      ],
      invokeStreamMapper(),
    );
    expect(
      events.some((entry) => entry.type === "chunk" && entry.chunk.choices?.[0]?.delta?.content === "hi"),
    ).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "usage", usage: { promptTokens: 4, completionTokens: 2 } });
  });

  it("ends with an error on an exception event or a stream cut short", async () => {
    const throttled = await collect([
      event("messageStart", { role: "assistant" }),
      encodeEventMessage(
        { ":exception-type": "throttlingException", ":message-type": "exception" },
        JSON.stringify({ message: "Too many requests" }),
      ),
    ]);
    expect(throttled.at(-1)).toEqual({
      type: "error",
      message: "Too many requests",
      code: "ThrottlingException",
    });
    const cut = await collect([event("messageStart", { role: "assistant" })]);
    expect(cut.at(-1)).toMatchObject({ type: "error", code: "protocol" });
  });
});
