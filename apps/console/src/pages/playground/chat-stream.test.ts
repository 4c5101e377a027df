import { describe, expect, it } from "vitest";
import { applyEvent, EMPTY_REPLY, type ReplyState, readChatStream } from "./chat-stream";
import { SseDecoder } from "./sse";

const chunk = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
const GEN = { id: "gen-1", object: "chat.completion.chunk", model: "openai/gpt-4o-mini", provider: "openai" };
const USAGE = {
  prompt_tokens: 12,
  completion_tokens: 3,
  total_tokens: 15,
  prompt_tokens_details: { cached_tokens: 4, cache_write_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 1 },
  cost: 0.0000215,
};
const WIRE =
  ": keep-alive\n\n" +
  chunk({ ...GEN, choices: [{ index: 0, delta: { role: "assistant", content: "Hel" } }] }) +
  chunk({ ...GEN, choices: [{ index: 0, delta: { content: "lo ✓" }, finish_reason: "stop" }] }) +
  chunk({ ...GEN, choices: [], usage: USAGE }) +
  "data: [DONE]\n\n";

function bodyOf(pieces: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

/** Splits bytes every `size` bytes, so lines, `\r\n` pairs and UTF-8 characters are cut apart. */
function split(bytes: Uint8Array, size: number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.slice(at, at + size));
  return pieces;
}

describe("SseDecoder", () => {
  it("yields each event's data once its blank line arrives, skipping comments and other fields", () => {
    const decoder = new SseDecoder();
    expect(decoder.push(": keep-alive\n\nevent: x\nid: 3\ndata: one")).toEqual([]);
    expect(decoder.push("\n\ndata:two\n")).toEqual(["one"]);
    expect(decoder.push("\n")).toEqual(["two"]);
  });

  it("joins multi-line data with newlines and keeps a space after the first", () => {
    const decoder = new SseDecoder();
    expect(decoder.push("data: a\ndata:  b\n\n")).toEqual(["a\n b"]);
  });

  it("treats \\r\\n split between two pieces as one line break", () => {
    const decoder = new SseDecoder();
    expect(decoder.push("data: x\r")).toEqual([]);
    // Were the \n after the \r counted again it would be a blank line dispatching "x" too early.
    expect(decoder.push("\ndata: y\r\n")).toEqual([]);
    expect(decoder.push("\r\n")).toEqual(["x\ny"]);
  });

  it("accepts lone \\r as a line break", () => {
    expect(new SseDecoder().push("data: z\r\rdata: w\r\r")).toEqual(["z", "w"]);
  });
});

describe("applyEvent", () => {
  it("appends delta content, keeps the first id, and marks [DONE]", () => {
    let reply: ReplyState = EMPTY_REPLY;
    reply = applyEvent(reply, JSON.stringify({ ...GEN, choices: [{ delta: { content: "a" } }] }));
    reply = applyEvent(
      reply,
      JSON.stringify({ ...GEN, id: "other", choices: [{ delta: { content: "b" } }] }),
    );
    expect(reply.text).toBe("ab");
    expect(reply.generationId).toBe("gen-1");
    expect(reply.done).toBe(false);
    expect(applyEvent(reply, "[DONE]").done).toBe(true);
  });

  it("reads the usage and cost of the final chunk", () => {
    const reply = applyEvent(EMPTY_REPLY, JSON.stringify({ ...GEN, choices: [], usage: USAGE }));
    expect(reply.usage).toEqual({
      promptTokens: 12,
      completionTokens: 3,
      totalTokens: 15,
      reasoningTokens: 1,
      cachedTokens: 4,
      cost: 0.0000215,
    });
  });

  it("surfaces an in-band error's message", () => {
    const reply = applyEvent(
      EMPTY_REPLY,
      JSON.stringify({ ...GEN, error: { message: "upstream timed out", code: 504 }, choices: [] }),
    );
    expect(reply.error).toBe("upstream timed out");
  });

  it("reports a chunk that is not JSON instead of throwing", () => {
    expect(applyEvent(EMPTY_REPLY, "{oops").error).toMatch(/not JSON/);
  });
});

describe("readChatStream", () => {
  const bytes = new TextEncoder().encode(WIRE);

  for (const size of [1, 3, 7, 64, bytes.length]) {
    it(`builds the same reply when the body arrives in ${size}-byte pieces`, async () => {
      const updates: string[] = [];
      const reply = await readChatStream(bodyOf(split(bytes, size)), (r) => updates.push(r.text));
      expect(reply.text).toBe("Hello ✓");
      expect(reply.finishReason).toBe("stop");
      expect(reply.usage?.cost).toBe(0.0000215);
      expect(reply.provider).toBe("openai");
      expect(reply.done).toBe(true);
      expect(updates.at(-1)).toBe("Hello ✓");
      // Token by token: a body in several pieces shows the first delta before the rest has arrived.
      if (size < bytes.length) expect(updates).toContain("Hel");
    });
  }

  it("is not done when the body ends before [DONE]", async () => {
    const cut = new TextEncoder().encode(WIRE.slice(0, WIRE.indexOf("data: [DONE]")));
    const reply = await readChatStream(bodyOf([cut]), () => {});
    expect(reply.done).toBe(false);
    expect(reply.usage?.totalTokens).toBe(15);
  });
});
