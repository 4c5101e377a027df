import { scanChunk } from "../../canonical/chunk-scan.js";
import { usageFromWire, usageWireSchema } from "../../canonical/wire.js";
import { type AttemptSignals, classifyError, type UpstreamBody } from "../http.js";
import { type FrameSink, SseFrames } from "../sse-frames.js";
import type { RelayableEvents, StreamEvent, StreamRelayTarget } from "../types.js";
import { mapSseEvent, parseSseEvent } from "./stream-map.js";

// What is still read of a stream's body after its events stopped (normally only the chunked
// terminator after `[DONE]`); more than this and the request is aborted instead.
const DRAIN_LIMIT_BYTES = 64 * 1024;

// Built once: `nullish()` makes a new schema (zod initialises it on every call).
const NULLISH_USAGE = usageWireSchema.nullish();

const MALFORMED: StreamEvent = {
  type: "error",
  message: "the provider sent a malformed stream chunk",
  code: "protocol",
};
const UNFINISHED: StreamEvent = {
  type: "error",
  message: "the provider closed the stream before finishing",
  code: "protocol",
};

/**
 * An OpenAI-format upstream stream: SSE frames found on the body's bytes (`SseFrames`), ending at
 * `[DONE]`; a network failure mid-stream becomes an error event, except when the client itself went
 * away; some hosts omit `[DONE]`, so only a stream that stopped before any choice finished is broken.
 *
 * It is read either way. Pulled (`for await`, for the attempts' first-event peek and the surfaces that
 * translate), each frame is decoded and mapped as text. Relayed (`relay`, the chat surface), the body
 * pushes its reads through undici's callbacks and each content frame goes to the target as the
 * provider's bytes with its structural scan: no decoding, no promise or generator per read or frame,
 * and the read's frames leave in one write (the target's `flush`), whose backpressure pauses the body.
 * After the stream stopped the rest of the body is read off (bounded), so the connection is reused.
 */
export class OpenAiEventStream implements RelayableEvents {
  private readonly frames = new SseFrames();
  private readonly pending: StreamEvent[] = [];
  private finished = false;
  private over = false;
  private target: StreamRelayTarget | undefined;
  private reader: AsyncIterator<Uint8Array> | undefined;

  constructor(
    private readonly body: AsyncIterable<Uint8Array>,
    private readonly signals: AttemptSignals,
  ) {}

  // ── pulled ───────────────────────────────────────────────────────────────

  [Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
    return {
      next: () => this.next(),
      return: () => {
        this.stop();
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }

  unshift(event: StreamEvent): void {
    this.pending.unshift(event);
  }

  private async next(): Promise<IteratorResult<StreamEvent>> {
    for (;;) {
      const event = this.pending.shift();
      if (event) return { done: false, value: event };
      if (this.over) return { done: true, value: undefined };
      if (this.frames.holds) {
        this.frames.resume(this.pullFrame);
        continue;
      }
      this.reader ??= this.body[Symbol.asyncIterator]();
      let read: IteratorResult<Uint8Array>;
      try {
        read = await this.reader.next();
      } catch (error) {
        this.failed(error, (failure) => this.pending.push(failure));
        continue;
      }
      if (read.done) this.ended(this.pullFrame, (failure) => this.pending.push(failure));
      else this.frames.push(asBuffer(read.value), this.pullFrame);
    }
  }

  /**
   * Pulled, frames are taken until one gives an event and the rest of the read is held: the first
   * event is all the attempts' peek needs, and a relay that starts after it gets the rest as bytes.
   */
  private readonly pullFrame = (
    event: string | undefined,
    bytes: Buffer,
    start: number,
    end: number,
  ): boolean | undefined => {
    if (this.over) return false;
    const mapped = mapSseEvent({ event, data: bytes.toString("utf8", start, end) });
    if (mapped === "done") {
      this.stop();
      return false;
    }
    for (const one of mapped) {
      this.finished ||= finishes(one);
      this.pending.push(one);
    }
    return this.pending.length === 0;
  };

  // ── relayed ──────────────────────────────────────────────────────────────

  relay(target: StreamRelayTarget): void {
    this.target = target;
    const queued = this.pending.splice(0);
    for (const event of queued) if (!this.deliver(event)) break;
    if (this.over) {
      this.endRelay();
      return;
    }
    // The rest of the read the peek stopped in, as bytes.
    this.frames.resume(this.pushFrame);
    target.flush();
    if (this.over) {
      this.endRelay();
      return;
    }
    const body = this.body as Partial<UpstreamBody>;
    if (typeof body.relay !== "function") {
      void this.pullInto(target);
      return;
    }
    body.relay({
      data: (chunk) => {
        this.frames.push(chunk, this.pushFrame);
        const room = target.flush();
        if (this.over) this.endRelay();
        return room;
      },
      end: () => {
        this.ended(this.pushFrame, (failure) => this.deliver(failure));
        target.flush();
        this.endRelay();
      },
      error: (error) => {
        this.failed(error, (failure) => this.deliver(failure));
        target.flush();
        this.endRelay();
      },
    });
  }

  resume(): void {
    (this.body as Partial<UpstreamBody>).resume?.();
  }

  /** A body that is not an upstream response (tests): pulled, then pushed as events. */
  private async pullInto(target: StreamRelayTarget): Promise<void> {
    for await (const event of this) if (!this.deliver(event)) break;
    target.flush();
    this.endRelay();
  }

  private readonly pushFrame = (
    event: string | undefined,
    bytes: Buffer,
    start: number,
    end: number,
  ): undefined => {
    if (this.over) return;
    const length = end - start;
    // "[DONE]" and whitespace; a longer one that trims to it is caught by the full parse below.
    if (length < 64 && bytes.toString("utf8", start, end).trim() === "[DONE]") {
      this.stop();
      return;
    }
    const text = event === "error" ? undefined : bytes.toString("latin1", start, end);
    const scan = text === undefined ? undefined : scanChunk(text);
    if (text === undefined || !scan || scan.error !== undefined) {
      const mapped = parseSseEvent({ event, data: bytes.toString("utf8", start, end) });
      if (mapped === "done") this.stop();
      else for (const one of mapped) if (!this.deliver(one)) return;
      return;
    }
    let usage: ReturnType<typeof usageFromWire>;
    if (scan.usage) {
      let json: unknown;
      try {
        json = JSON.parse(bytes.toString("utf8", start + scan.usage.start, start + scan.usage.end));
      } catch {
        this.deliver(MALFORMED);
        return;
      }
      const parsed = NULLISH_USAGE.safeParse(json);
      if (!parsed.success) {
        this.deliver(MALFORMED);
        return;
      }
      usage = usageFromWire(parsed.data);
    }
    if (scan.hasChoices) {
      this.finished ||= scan.finishReason !== undefined;
      this.target?.raw(bytes, start, text, scan);
    }
    if (usage) this.target?.event({ type: "usage", usage });
  };

  /** One event to the target; false once the stream stopped (an error event stops it). */
  private deliver(event: StreamEvent): boolean {
    if (this.over) return false;
    this.finished ||= finishes(event);
    this.target?.event(event);
    if (event.type !== "error") return true;
    this.stop();
    return false;
  }

  private endRelay(): void {
    const target = this.target;
    this.target = undefined;
    target?.end();
  }

  // ── either way ───────────────────────────────────────────────────────────

  /** The body's end: a final unterminated frame, then the unfinished-stream check. */
  private ended(onFrame: FrameSink, report: (failure: StreamEvent) => void): void {
    this.frames.end(onFrame);
    if (this.over) return;
    if (!this.finished) report(UNFINISHED);
    this.over = true;
  }

  private failed(error: unknown, report: (failure: StreamEvent) => void): void {
    if (this.over) return;
    const failure = classifyError(error, this.signals);
    if (failure.kind !== "cancelled") report({ type: "error", message: failure.message, code: failure.kind });
    this.over = true;
  }

  /**
   * The events stop here: the rest of the body is read off (a client that left has already aborted
   * the request, so nothing is read for it). Destroying the body instead would build an AbortError
   * with a stack trace for every stream.
   */
  stop(): void {
    if (this.over) return;
    this.over = true;
    const body = this.body as Partial<UpstreamBody>;
    if (this.signals.combined.aborted) return;
    if (typeof body.dump === "function") body.dump({ limit: DRAIN_LIMIT_BYTES }).catch(() => undefined);
    else void this.reader?.return?.();
  }
}

function finishes(event: StreamEvent): boolean {
  if (event.type === "raw") return event.scan.finishReason !== undefined;
  return (
    event.type === "chunk" && (event.chunk.choices ?? []).some((choice) => Boolean(choice.finish_reason))
  );
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
