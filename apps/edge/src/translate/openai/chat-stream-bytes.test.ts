import { describe, expect, it } from "vitest";
import { scanChunk } from "../../canonical/chunk-scan.js";
import { FrameBytes } from "../frame-bytes.js";
import { ChatStreamRewriter } from "./chat-stream.js";

const identity = { generationId: "gen-1", model: "openai/gpt-4o-mini", provider: "openai", created: 100 };

// Chunks as hosts send them: the envelope's members in any order, created / fingerprint / provider
// changing mid-stream, multi-byte text, a member we do not know, whitespace between tokens.
const CHUNKS = [
  '{"id":"chatcmpl-ü","object":"chat.completion.chunk","created":555,"model":"x","system_fingerprint":"fp_é","choices":[{"index":0,"delta":{"role":"assistant","content":"héllo 世界"},"finish_reason":null}]}',
  '{"choices":[{"index":0,"delta":{"content":"🎉"},"finish_reason":null}],"created":556,"id":"other","model":"x"}',
  '{ "id" : "chatcmpl-ü" , "provider" : "Ünïcode host" , "choices" : [ { "delta" : { "content" : "a\\"b\\\\" } } ] , "x_extra" : {"k":[1,2]} }',
  '{"id":"chatcmpl-ü","system_fingerprint":"fp_2","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null}',
];

describe("ChatStreamRewriter.rawBytes", () => {
  it("writes byte for byte what raw() writes for the same chunks, and remembers the same for metering", () => {
    const text = new ChatStreamRewriter(identity);
    const bytes = new ChatStreamRewriter(identity);
    const out = new FrameBytes();
    const expected: string[] = [];
    for (const chunk of CHUNKS) {
      const scan = scanChunk(chunk);
      if (!scan) throw new Error(`not scanned: ${chunk}`);
      expected.push(text.raw(chunk, scan));
      // The chunk inside a larger read, as the relay sees it.
      const read = Buffer.from(`data: ${chunk}\n\n`);
      const latin1 = read.toString("latin1", 6, read.length - 2);
      const byteScan = scanChunk(latin1);
      if (!byteScan) throw new Error(`not scanned as bytes: ${chunk}`);
      bytes.rawBytes(read, 6, latin1, byteScan, out);
    }
    expect(out.take()?.toString("utf8")).toBe(expected.join(""));
    expect(bytes.upstreamId()).toBe(text.upstreamId());
    expect(bytes.finishReason()).toBe("stop");
    expect(bytes.outputTexts()).toEqual(text.outputTexts());
    expect(bytes.outputTexts().join("")).toContain("héllo 世界🎉");
  });
});
