import { describe, expect, it } from "vitest";
import { SseParser } from "./sse.js";

const encoder = new TextEncoder();

function parseInPieces(text: string, sizes: (index: number) => number): string[] {
  const bytes = encoder.encode(text);
  const parser = new SseParser();
  const data: string[] = [];
  let offset = 0;
  for (let index = 0; offset < bytes.length; index++) {
    const size = Math.max(1, sizes(index));
    for (const event of parser.push(bytes.subarray(offset, offset + size))) data.push(event.data);
    offset += size;
  }
  for (const event of parser.end()) data.push(event.data);
  return data;
}

const STREAM =
  ": OPENROUTER PROCESSING\n\n" +
  'data: {"choices":[{"delta":{"content":"Grüße 👋"}}]}\n\n' +
  'data: {"choices":[{"delta":{"content":"second"}}]}\r\n\r\n' +
  'event: error\ndata: {"a":1}\ndata: {"b":2}\r\r' +
  "data: [DONE]\n\n";

const EXPECTED = [
  '{"choices":[{"delta":{"content":"Grüße 👋"}}]}',
  '{"choices":[{"delta":{"content":"second"}}]}',
  '{"a":1}\n{"b":2}',
  "[DONE]",
];

describe("SseParser", () => {
  it("parses a whole stream: comments dropped, CRLF/CR/LF line ends, multi-line data joined", () => {
    expect(parseInPieces(STREAM, () => 1 << 20)).toEqual(EXPECTED);
  });

  it("gives the same events however the bytes are split (inside characters and between CR and LF)", () => {
    const total = encoder.encode(STREAM).length;
    for (let size = 1; size <= 17; size++) expect(parseInPieces(STREAM, () => size)).toEqual(EXPECTED);
    for (let cut = 1; cut < total; cut++) {
      expect(parseInPieces(STREAM, (index) => (index === 0 ? cut : total))).toEqual(EXPECTED);
    }
  });

  it("keeps the event name and strips exactly one space after the colon", () => {
    const parser = new SseParser();
    expect(parser.push("event: ping\ndata:  two spaces\n\n")).toEqual([
      { event: "ping", data: " two spaces" },
    ]);
    expect(parser.push("data:no space\n\n")).toEqual([{ event: undefined, data: "no space" }]);
  });

  it("flushes a final event that was not terminated by a blank line", () => {
    const parser = new SseParser();
    expect(parser.push('data: {"last":true}')).toEqual([]);
    expect(parser.end()).toEqual([{ event: undefined, data: '{"last":true}' }]);
  });
});
