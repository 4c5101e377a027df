export interface SseEvent {
  event: string | undefined;
  data: string;
}

/**
 * Incremental server-sent-events parser (the WHATWG rules the SDKs follow): bytes may split anywhere,
 * including inside a multi-byte character or between the CR and LF of a line break. Comment lines are
 * dropped, several `data:` lines join with "\n", and a blank line dispatches the event.
 */
export class SseParser {
  private readonly decoder = new TextDecoder("utf-8");
  private buffer = "";
  private skipLeadingLf = false;
  private data: string[] = [];
  private event: string | undefined;

  push(chunk: Uint8Array | string): SseEvent[] {
    const text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    return this.consume(text);
  }

  /** Flushes a final event that the upstream did not terminate with a blank line. */
  end(): SseEvent[] {
    const events = this.consume(this.decoder.decode());
    if (this.buffer.length > 0) this.line(this.buffer, events);
    this.buffer = "";
    this.dispatch(events);
    return events;
  }

  private consume(text: string): SseEvent[] {
    const events: SseEvent[] = [];
    let input = text;
    if (this.skipLeadingLf && input.startsWith("\n")) input = input.slice(1);
    this.skipLeadingLf = false;
    this.buffer += input;
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      const line = this.buffer.slice(0, match.index);
      const rest = this.buffer.slice(match.index + match[0].length);
      // A lone CR at the very end may be the first half of a CRLF split across chunks.
      if (match[0] === "\r" && rest.length === 0) this.skipLeadingLf = true;
      this.buffer = rest;
      this.line(line, events);
    }
    return events;
  }

  private line(line: string, events: SseEvent[]): void {
    if (line.length === 0) {
      this.dispatch(events);
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
  }

  private dispatch(events: SseEvent[]): void {
    if (this.data.length > 0) events.push({ event: this.event, data: this.data.join("\n") });
    this.data = [];
    this.event = undefined;
  }
}
