import { describe, expect, it } from "vitest";
import type { AttemptSignals } from "../http.js";
import type { StreamEvent } from "../types.js";
import { mapSseEvent, openAiStreamEvents } from "./stream.js";

function signals(): AttemptSignals {
  const client = new AbortController().signal;
  const total = new AbortController().signal;
  return { client, total, combined: AbortSignal.any([client, total]) };
}

async function* bytes(text: string, size: number): AsyncGenerator<Uint8Array> {
  const encoded = new TextEncoder().encode(text);
  for (let offset = 0; offset < encoded.length; offset += size) yield encoded.subarray(offset, offset + size);
}

async function collect(source: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of source) events.push(event);
  return events;
}

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "up-1", object: "chat.completion.chunk", created: 1, model: "gpt", choices: [{ index: 0, delta, finish_reason: finish }], usage: null })}\n\n`;
const usageChunk = `data: ${JSON.stringify({ id: "up-1", choices: [], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11, prompt_tokens_details: { cached_tokens: 4 } } })}\n\n`;

describe("openAiStreamEvents", () => {
  it("maps content chunks, splits the usage-only chunk off as usage, and stops at [DONE]", async () => {
    const stream =
      chunk({ role: "assistant", content: "Hi" }) +
      chunk({}, "stop") +
      usageChunk +
      "data: [DONE]\n\n" +
      chunk({ content: "after done" });
    const events = await collect(openAiStreamEvents(bytes(stream, 7), signals()));
    expect(events.map((event) => event.type)).toEqual(["raw", "raw", "usage"]);
    expect(events[2]).toEqual({
      type: "usage",
      usage: {
        promptTokens: 9,
        completionTokens: 2,
        cachedTokens: 4,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
      },
    });
    // Content goes on as the provider's own text, unparsed.
    const first = events[0];
    expect(first?.type === "raw" && first.data).toBe(
      chunk({ role: "assistant", content: "Hi" }).slice(6, -2),
    );
  });

  it("reports a stream that ends before any choice finished", async () => {
    const events = await collect(openAiStreamEvents(bytes(chunk({ content: "par" }), 5), signals()));
    expect(events.at(-1)).toMatchObject({ type: "error", code: "protocol" });
  });

  it("accepts a stream without [DONE] once a choice has finished", async () => {
    const events = await collect(
      openAiStreamEvents(bytes(chunk({ content: "x" }, "stop") + usageChunk, 3), signals()),
    );
    expect(events.map((event) => event.type)).toEqual(["raw", "usage"]);
  });

  it("turns a network failure mid-stream into an error event", async () => {
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode(chunk({ content: "x" }));
      throw Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
    }
    const events = await collect(openAiStreamEvents(broken(), signals()));
    expect(events.at(-1)).toEqual({ type: "error", message: "other side closed", code: "connect" });
  });

  it("ends quietly when the client went away", async () => {
    const client = new AbortController();
    const total = new AbortController().signal;
    async function* aborted(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode(chunk({ content: "x" }));
      client.abort();
      throw new Error("aborted");
    }
    const events = await collect(
      openAiStreamEvents(aborted(), {
        client: client.signal,
        total,
        combined: AbortSignal.any([client.signal, total]),
      }),
    );
    expect(events.map((event) => event.type)).toEqual(["raw"]);
  });
});

describe("mapSseEvent", () => {
  it("keeps content and usage apart when a provider sends both in one chunk", () => {
    const events = mapSseEvent({
      event: undefined,
      data: JSON.stringify({
        choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
        usage: { prompt_tokens: 1, completion_tokens: 1 },
      }),
    });
    expect(events).not.toBe("done");
    expect(Array.isArray(events) && events.map((event) => event.type)).toEqual(["raw", "usage"]);
  });

  it("drops chunks with neither choices nor usage", () => {
    expect(mapSseEvent({ event: undefined, data: '{"choices":[],"usage":null}' })).toEqual([]);
  });

  it("recognises in-band errors and malformed data", () => {
    expect(mapSseEvent({ event: undefined, data: '{"error":{"message":"overloaded","code":529}}' })).toEqual([
      { type: "error", message: "overloaded", code: "529" },
    ]);
    expect(mapSseEvent({ event: "error", data: '{"message":"x"}' })).toEqual([
      { type: "error", message: "the provider reported an error mid-stream", code: undefined },
    ]);
    expect(mapSseEvent({ event: undefined, data: "{not json" })).toEqual([
      { type: "error", message: "the provider sent a malformed stream chunk", code: "protocol" },
    ]);
  });
});
