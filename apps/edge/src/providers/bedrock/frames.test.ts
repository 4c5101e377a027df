import { describe, expect, it } from "vitest";
import { EventStreamFrames, encodeEventMessage } from "./frames.js";

const chunk = (text: string) =>
  encodeEventMessage({ ":event-type": "chunk", ":message-type": "event" }, JSON.stringify({ text }));

describe("Bedrock event-stream framing", () => {
  it("finds whole messages however the reads split them", () => {
    const bytes = Buffer.concat([chunk("one"), chunk("two"), chunk("three")]);
    for (const size of [1, 7, 64, bytes.length]) {
      const frames = new EventStreamFrames();
      const texts: string[] = [];
      for (let at = 0; at < bytes.length; at += size)
        for (const message of frames.push(bytes.subarray(at, at + size)))
          texts.push((JSON.parse(message.payload) as { text: string }).text);
      expect(texts, `reads of ${size}`).toEqual(["one", "two", "three"]);
      expect(frames.incomplete).toBe(false);
    }
  });

  it("keeps the headers and says when the body ended inside a message", () => {
    const frames = new EventStreamFrames();
    const whole = chunk("x");
    const [message] = frames.push(whole);
    expect(message?.headers).toEqual({ ":event-type": "chunk", ":message-type": "event" });
    expect(frames.push(whole.subarray(0, 10))).toEqual([]);
    expect(frames.incomplete).toBe(true);
  });

  it("refuses a message whose checksum does not match", () => {
    const corrupt = Buffer.from(chunk("x"));
    corrupt[corrupt.length - 6] = (corrupt[corrupt.length - 6] ?? 0) ^ 0xff;
    expect(() => new EventStreamFrames().push(corrupt)).toThrow(/checksum/i);
  });
});
