/**
 * An incremental Server-Sent Events decoder (the WHATWG event-stream rules the chat stream follows):
 * text arrives in arbitrary pieces, so a line, a `\r\n` pair or a multi-byte character may be split
 * between two network chunks. Only `data` fields matter to the chat stream; comments (`: keep-alive`)
 * and other fields are skipped. Each blank line dispatches the event's joined data.
 */
export class SseDecoder {
  private buffer = "";
  private data: string[] = [];
  /** A `\r` ended the last piece: a `\n` opening the next one belongs to the same line break. */
  private pendingCr = false;

  /** Feeds one piece of text; returns the data of every event it completed, in order. */
  push(text: string): string[] {
    let input = text;
    if (this.pendingCr && input.startsWith("\n")) input = input.slice(1);
    this.pendingCr = false;
    this.buffer += input;
    const events: string[] = [];
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      if (end < 0) break;
      const line = this.buffer.slice(0, end);
      const breakLength = this.buffer.startsWith("\r\n", end) ? 2 : 1;
      if (breakLength === 1 && this.buffer[end] === "\r" && end === this.buffer.length - 1) {
        this.pendingCr = true;
      }
      this.buffer = this.buffer.slice(end + breakLength);
      const event = this.line(line);
      if (event !== undefined) events.push(event);
    }
    return events;
  }

  /** The end of the stream: an event without its closing blank line is discarded, as browsers do. */
  end(): void {
    this.buffer = "";
    this.data = [];
    this.pendingCr = false;
  }

  private line(line: string): string | undefined {
    if (line === "") {
      if (this.data.length === 0) return undefined;
      const event = this.data.join("\n");
      this.data = [];
      return event;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== "data") return undefined;
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    this.data.push(value);
    return undefined;
  }
}
