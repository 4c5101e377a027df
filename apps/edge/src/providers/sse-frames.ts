/**
 * One event's data as bytes: `bytes[start, end)`, several `data:` lines already joined with LF.
 * Returning false holds the rest of the read until `resume` (a reader that wants one event at a time).
 */
export type FrameSink = (
  event: string | undefined,
  bytes: Buffer,
  start: number,
  end: number,
) => boolean | undefined;

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const BOM = [0xef, 0xbb, 0xbf];

/**
 * Server-sent events found on the bytes (the WHATWG rules the SDKs follow; what `SseParser` does on
 * text): the delimiters are ASCII, so no decoding is needed to find a frame, and an event's data is
 * handed on as a span of the bytes that arrived (a copy only when it spans reads or several lines).
 * Reads may split anywhere: inside a multi-byte character, between the CR and LF of a line break,
 * inside the byte-order mark. Comment lines are dropped, several `data:` lines join with LF, a blank
 * line dispatches the event.
 */
export class SseFrames {
  /** The unfinished line's bytes from earlier reads (no line break seen yet). */
  private partial: Buffer[] = [];
  private skipLeadingLf = false;
  private atStart = true;
  private event: string | undefined;
  // The event's data: one span while it is one line, else the lines joined.
  private dataBytes: Buffer | undefined;
  private dataStart = 0;
  private dataEnd = 0;
  private dataJoined: Buffer[] | undefined;
  /** Set by a sink that returned false: the rest of the read, not looked at yet. */
  private held: Buffer | undefined;
  private heldAt = 0;
  private holding = false;

  /** Whether a sink stopped the last read before its end (`resume` carries on). */
  get holds(): boolean {
    return this.held !== undefined;
  }

  /** Carries on with the read a sink stopped. */
  resume(emit: FrameSink): void {
    const held = this.held;
    if (held === undefined) return;
    this.held = undefined;
    this.lines(held, this.heldAt, emit);
  }

  push(chunk: Buffer, emit: FrameSink): void {
    if (this.held !== undefined) throw new Error("SseFrames.push while a read is held");
    // An empty read says nothing (and must not end the byte-order mark's window).
    if (chunk.length === 0) return;
    let bytes = chunk;
    if (this.partial.length > 0) {
      if (!hasLineBreak(chunk)) {
        this.partial.push(chunk);
        return;
      }
      this.partial.push(chunk);
      bytes = Buffer.concat(this.partial);
      this.partial = [];
    }
    let position = 0;
    if (this.skipLeadingLf) {
      this.skipLeadingLf = false;
      if (bytes[0] === LF) position = 1;
    }
    if (this.atStart) {
      if (bytes.length < BOM.length && isBomPrefix(bytes)) {
        this.partial.push(bytes);
        return;
      }
      this.atStart = false;
      if (isBomPrefix(bytes)) position = BOM.length;
    }
    this.lines(bytes, position, emit);
  }

  /** Flushes a final event that the upstream did not terminate with a blank line. */
  end(emit: FrameSink): void {
    if (this.partial.length > 0) {
      const rest = Buffer.concat(this.partial);
      this.partial = [];
      const start = this.atStart && isBomPrefix(rest) && rest.length >= BOM.length ? BOM.length : 0;
      if (rest.length > start) this.line(rest, start, rest.length, emit);
    }
    this.dispatch(emit);
  }

  private lines(bytes: Buffer, from: number, emit: FrameSink): void {
    let position = from;
    // Where the next CR is (-1: none left): searched once per read, not once per line.
    let cr = bytes.indexOf(CR, position);
    for (;;) {
      const lf = bytes.indexOf(LF, position);
      if (cr !== -1 && cr < position) cr = bytes.indexOf(CR, position);
      const lineEnd = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (lineEnd === -1) {
        if (position < bytes.length) this.partial.push(bytes.subarray(position));
        return;
      }
      this.line(bytes, position, lineEnd, emit);
      if (bytes[lineEnd] === CR) {
        if (lineEnd + 1 === bytes.length) {
          // A CR at the very end may be the first half of a CRLF split across reads.
          this.skipLeadingLf = true;
          this.holding = false;
          return;
        }
        position = bytes[lineEnd + 1] === LF ? lineEnd + 2 : lineEnd + 1;
      } else position = lineEnd + 1;
      if (this.holding) {
        this.holding = false;
        if (position < bytes.length) {
          this.held = bytes;
          this.heldAt = position;
        }
        return;
      }
    }
  }

  private line(bytes: Buffer, start: number, end: number, emit: FrameSink): void {
    if (start === end) {
      this.dispatch(emit);
      return;
    }
    if (bytes[start] === COLON) return;
    let colon = bytes.indexOf(COLON, start);
    if (colon === -1 || colon > end) colon = end;
    let valueStart = colon < end ? colon + 1 : end;
    if (valueStart < end && bytes[valueStart] === SPACE) valueStart++;
    const fieldLength = colon - start;
    if (fieldLength === 4 && isField(bytes, start, "data")) this.data(bytes, valueStart, end);
    else if (fieldLength === 5 && isField(bytes, start, "event"))
      this.event = bytes.toString("utf8", valueStart, end);
  }

  private data(bytes: Buffer, start: number, end: number): void {
    if (this.dataBytes === undefined && this.dataJoined === undefined) {
      this.dataBytes = bytes;
      this.dataStart = start;
      this.dataEnd = end;
      return;
    }
    if (this.dataJoined === undefined) {
      this.dataJoined = [(this.dataBytes as Buffer).subarray(this.dataStart, this.dataEnd)];
      this.dataBytes = undefined;
    }
    this.dataJoined.push(LINE_FEED, bytes.subarray(start, end));
  }

  private dispatch(emit: FrameSink): void {
    const joined = this.dataJoined;
    const bytes = this.dataBytes;
    const event = this.event;
    this.event = undefined;
    this.dataJoined = undefined;
    this.dataBytes = undefined;
    let more: boolean | undefined = true;
    if (joined !== undefined) {
      const data = Buffer.concat(joined);
      more = emit(event, data, 0, data.length);
    } else if (bytes !== undefined) more = emit(event, bytes, this.dataStart, this.dataEnd);
    if (more === false) this.holding = true;
  }
}

const LINE_FEED = Buffer.from([LF]);

function hasLineBreak(bytes: Buffer): boolean {
  return bytes.indexOf(LF) !== -1 || bytes.indexOf(CR) !== -1;
}

function isBomPrefix(bytes: Buffer): boolean {
  const length = Math.min(bytes.length, BOM.length);
  for (let index = 0; index < length; index++) if (bytes[index] !== BOM[index]) return false;
  return length > 0;
}

function isField(bytes: Buffer, start: number, name: string): boolean {
  for (let index = 0; index < name.length; index++)
    if (bytes[start + index] !== name.charCodeAt(index)) return false;
  return true;
}
