import { describe, expect, it } from "vitest";
import { type SseEvent, SseParser } from "./sse.js";
import { SseFrames } from "./sse-frames.js";

/** Runs the byte framer over `reads` and returns its events with the data decoded. */
function frames(reads: Buffer[], hold = false): SseEvent[] {
  const framer = new SseFrames();
  const events: SseEvent[] = [];
  const sink = (event: string | undefined, bytes: Buffer, start: number, end: number) => {
    events.push({ event, data: bytes.toString("utf8", start, end) });
    // Holding after every event must change nothing but the pace.
    return hold ? false : undefined;
  };
  for (const read of reads) {
    framer.push(read, sink);
    while (framer.holds) framer.resume(sink);
  }
  framer.end(sink);
  return events;
}

/** The text parser's events for the same bytes: the framer must agree with it. */
function parsed(bytes: Buffer): SseEvent[] {
  const parser = new SseParser();
  return [...parser.push(bytes), ...parser.end()];
}

const STREAM = Buffer.concat([
  Buffer.from([0xef, 0xbb, 0xbf]),
  Buffer.from(
    [
      "data: after the BOM\n\n",
      ": a comment\r\n",
      "data: line 1\r\ndata: line 2\r\n\r\n",
      'data: {"choices":[{"delta":{"content":"héllo 世界 🎉"}}]}\r\n\r\n',
      "event: error\rdata: first line\rdata: second\r\r",
      "data:no space\n\n",
      "id: 7\nretry: 10\ndata: {}\n\n",
      "data\n\n",
      'data: {"tail":"unterminated 🎉"}',
    ].join(""),
  ),
]);

describe("SseFrames", () => {
  it("finds the same events as the text parser, the whole stream in one read", () => {
    const events = frames([STREAM]);
    expect(events).toEqual(parsed(STREAM));
    expect(events.map((event) => event.data)).toEqual([
      "after the BOM",
      "line 1\nline 2",
      '{"choices":[{"delta":{"content":"héllo 世界 🎉"}}]}',
      "first line\nsecond",
      "no space",
      "{}",
      "",
      '{"tail":"unterminated 🎉"}',
    ]);
    expect(events[3]?.event).toBe("error");
  });

  it("finds the same events whatever byte offset splits the reads (BOM, CRLF, multi-byte characters)", () => {
    const expected = parsed(STREAM);
    for (let offset = 0; offset <= STREAM.length; offset++) {
      const reads = [STREAM.subarray(0, offset), STREAM.subarray(offset)];
      expect(frames(reads), `split at ${offset}`).toEqual(expected);
      expect(frames(reads, true), `split at ${offset}, held`).toEqual(expected);
    }
  });

  it("finds the same events when every byte is its own read", () => {
    const reads = [...STREAM].map((byte) => Buffer.from([byte]));
    expect(frames(reads)).toEqual(parsed(STREAM));
  });

  it("hands a frame that arrived in one read on as a span of that read, not a copy", () => {
    const read = Buffer.from('data: {"a":1}\n\n');
    let seen: Buffer | undefined;
    new SseFrames().push(read, (_event, bytes) => {
      seen = bytes;
      return undefined;
    });
    expect(seen).toBe(read);
  });

  it("passes a hostile upstream's NUL bytes and bare CRs through as bytes", () => {
    const stream = Buffer.from('data: {"c":"a\u0000b"}\r\rdata: x\ry\r\r');
    const events = frames([stream]);
    expect(events).toEqual(parsed(stream));
    expect(events[0]?.data).toBe('{"c":"a\u0000b"}');
  });

  it("joins an oversized frame that arrives in many small reads into one event, byte for byte", () => {
    const content = "ü".repeat(512 * 1024);
    const stream = Buffer.from(`data: {"c":"${content}"}\n\ndata: next\n\n`);
    const reads: Buffer[] = [];
    for (let offset = 0; offset < stream.length; offset += 1000)
      reads.push(stream.subarray(offset, offset + 1000));
    const events = frames(reads);
    expect(events).toHaveLength(2);
    expect(events[0]?.data).toBe(`{"c":"${content}"}`);
    expect(events[1]?.data).toBe("next");
  });
});
