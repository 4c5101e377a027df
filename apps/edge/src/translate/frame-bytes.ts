/**
 * The bytes one upstream read turns into for the client: pieces (our envelopes, spans of the
 * provider's own bytes, rendered text) collected without copying, then joined into one buffer for
 * one write. A span references the read's buffer only until `take`.
 */
export class FrameBytes {
  private parts: Buffer[] = [];
  private length = 0;

  add(bytes: Buffer): void {
    this.parts.push(bytes);
    this.length += bytes.length;
  }

  /** `bytes[start, end)`. */
  addSpan(bytes: Buffer, start: number, end: number): void {
    if (end > start) this.add(bytes.subarray(start, end));
  }

  addText(text: string): void {
    if (text !== "") this.add(Buffer.from(text, "utf8"));
  }

  get empty(): boolean {
    return this.length === 0;
  }

  /** Everything added, as one buffer (a fresh one: the socket may hold it after the write returns). */
  take(): Buffer | undefined {
    if (this.length === 0) return undefined;
    const joined = Buffer.concat(this.parts, this.length);
    this.parts = [];
    this.length = 0;
    return joined;
  }
}
