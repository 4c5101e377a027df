import { describe, expect, it } from "vitest";
import { mapSseEvent, openAiStreamEvents } from "../providers/openai-compatible/stream.js";
import type { StreamEvent } from "../providers/types.js";
import { ChatStreamRewriter } from "../translate/openai/chat-stream.js";
import { scanChunk } from "./chunk-scan.js";

const text = (data: string, span: { start: number; end: number } | undefined) =>
  span ? data.slice(span.start, span.end) : undefined;

describe("scanChunk", () => {
  it("finds the members, the finish reason and the usage without parsing", () => {
    const data =
      '{"id":"up-1","object":"chat.completion.chunk","created":7,"model":"m","system_fingerprint":"fp",' +
      '"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3},"x":[1,{"y":null}]}';
    const scan = scanChunk(data);
    expect(text(data, scan?.id)).toBe('"up-1"');
    expect(text(data, scan?.created)).toBe("7");
    expect(text(data, scan?.fingerprint)).toBe('"fp"');
    expect(text(data, scan?.finishReason)).toBe('"stop"');
    expect(text(data, scan?.usage)).toBe('{"prompt_tokens":3}');
    expect(scan?.hasChoices).toBe(true);
    const rest = scan?.rest ?? [];
    expect([data.slice(rest[0], rest[1]), data.slice(rest[2], rest[3])]).toEqual([
      '"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":"stop"}]',
      '"x":[1,{"y":null}]',
    ]);
  });

  it("is not fooled by keys, quotes and brackets inside escaped strings", () => {
    // An odd number of quotes before the brackets: a scanner that ignored escapes would end a string early.
    const content = 'say "finish_reason":"stop" and " {[}] \\"usage\\": \\';
    const data = JSON.stringify({ choices: [{ delta: { content }, finish_reason: null }], usage: null });
    const scan = scanChunk(data);
    expect(scan?.finishReason).toBeUndefined();
    expect(text(data, scan?.usage)).toBe("null");
    expect(JSON.parse(text(data, scan?.choices) ?? "")[0].delta.content).toBe(content);
  });

  it("refuses cut or badly nested text", () => {
    for (const bad of ['{"choices":[', '{"a":"b}', '{"a":[}]', '{"a":1,}', '{"a" 1}', '{"a":1}x', "[1]", ""])
      expect(scanChunk(bad), bad).toBeUndefined();
    expect(scanChunk(" { } ")).toBeDefined();
  });
});

async function* bytes(text: string, size: number): AsyncGenerator<Uint8Array> {
  const encoded = new TextEncoder().encode(text);
  for (let offset = 0; offset < encoded.length; offset += size) yield encoded.subarray(offset, offset + size);
}

const signals = () => {
  const client = new AbortController().signal;
  const total = new AbortController().signal;
  return { client, total, combined: new AbortController().signal };
};

async function collect(source: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of source) events.push(event);
  return events;
}

describe("the usage scan over a real stream", () => {
  const usageEvent =
    'data: {"id":"up-1","choices":[],"usage":{"prompt_tokens":11,"completion_tokens":4,"total_tokens":15,"prompt_tokens_details":{"cached_tokens":2}}}\n\n';
  const content =
    'data: {"id":"up-1","choices":[{"index":0,"delta":{"content":"\\"usage\\":{\\"prompt_tokens\\":999} \\" }"},"finish_reason":"stop"}]}\n\n';

  it("reads the usage split across every chunk boundary, and never from escaped text", async () => {
    for (const size of [1, 2, 5, 17]) {
      const events = await collect(
        openAiStreamEvents(bytes(content + usageEvent + "data: [DONE]\n\n", size), signals()),
      );
      expect(events.map((event) => event.type)).toEqual(["raw", "usage"]);
      expect(events[1]).toEqual({
        type: "usage",
        usage: {
          promptTokens: 11,
          completionTokens: 4,
          cachedTokens: 2,
          cacheWriteTokens: 0,
          reasoningTokens: 0,
        },
      });
    }
  });

  it("reports no usage for a provider that sends none", async () => {
    const events = await collect(openAiStreamEvents(bytes(`${content}data: [DONE]\n\n`, 9), signals()));
    expect(events.map((event) => event.type)).toEqual(["raw"]);
  });

  it("refuses a usage object that is not one", () => {
    expect(
      mapSseEvent({ event: undefined, data: '{"choices":[],"usage":{"prompt_tokens":"many"}}' }),
    ).toEqual([{ type: "error", message: "the provider sent a malformed stream chunk", code: "protocol" }]);
  });
});

describe("ChatStreamRewriter.raw", () => {
  const identity = { generationId: "gen-1", model: "openai/gpt-4o-mini", provider: "OpenAI", created: 5 };

  it("relays the provider's bytes, with only the envelope spliced in and usage left out", () => {
    const rewriter = new ChatStreamRewriter(identity);
    const choices =
      '[{"index":0,"delta":{"content":"h\\u00e9 \\"x\\""},"finish_reason":null,"logprobs":null}]';
    const data = `{"id":"up-1","object":"chat.completion.chunk","created":9,"model":"gpt-4o-mini","system_fingerprint":"fp_1","choices":${choices},"usage":null,"obfuscation":"abc"}`;
    const scan = scanChunk(data);
    if (!scan) throw new Error("scan failed");
    const frame = rewriter.raw(data, scan);
    expect(frame).toBe(
      `data: {"id":"gen-1","object":"chat.completion.chunk","created":9,"model":"openai/gpt-4o-mini","provider":"OpenAI","system_fingerprint":"fp_1","choices":${choices},"obfuscation":"abc"}\n\n`,
    );
    expect(rewriter.upstreamId()).toBe("up-1");
    expect(rewriter.outputTexts()).toEqual(['hé "x"']);
  });

  it("remembers the finish reason and keeps the envelope for the end", () => {
    const rewriter = new ChatStreamRewriter(identity);
    const data = '{"id":"up-2","choices":[{"index":0,"delta":{},"finish_reason":"length"}]}';
    const scan = scanChunk(data);
    if (!scan) throw new Error("scan failed");
    expect(rewriter.raw(data, scan)).toBe(
      `data: {"id":"gen-1","object":"chat.completion.chunk","created":5,"model":"openai/gpt-4o-mini","provider":"OpenAI","choices":[{"index":0,"delta":{},"finish_reason":"length"}]}\n\n`,
    );
    expect(rewriter.finishReason()).toBe("length");
  });
});
