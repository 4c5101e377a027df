import { type Deadline, sharedTimerWheel } from "@gw/http";
import type { Response } from "express";
import { FrameBytes } from "../translate/frame-bytes.js";
import { SSE_HEADERS, SSE_KEEP_ALIVE } from "../translate/sse.js";
import type { StreamFraming } from "../translate/surface.js";

export const SSE_FRAMING: StreamFraming = { headers: SSE_HEADERS, keepAlive: SSE_KEEP_ALIVE };

/**
 * Writes an SSE response with backpressure and keep-alives. Headers go out lazily, with the first
 * frame or the first keep-alive, so a request that fails before either still gets a proper error
 * status. While nothing else is written a `: keep-alive` comment goes out every `keepAliveMs`.
 * The keep-alive clock is a deadline on the shared timer wheel, not a Node timer per stream: a write
 * only notes its time, and the deadline, when it comes, either sends the comment or moves itself to
 * `keepAliveMs` after the last write.
 */
export class SseWriter {
  private opened = false;
  private finished = false;
  private gone = false;
  private keepAlive: Deadline | undefined;
  /** When the last frame was queued (`Date.now()`), read by the keep-alive deadline. */
  private lastWrite = 0;
  /** Frames written in this tick, sent as one string when it ends. */
  private batch: string[] = [];
  /** The tick's batch once the byte relay added to it: sent as one buffer. */
  private mixed: FrameBytes | undefined;
  private flushScheduled = false;
  /** Set while the socket's buffer is over its mark; resolves once it drained or the client left. */
  private blocked: Promise<void> | undefined;

  constructor(
    private readonly response: Response,
    private readonly keepAliveMs: number,
    private readonly framing: StreamFraming = SSE_FRAMING,
  ) {
    response.once("close", () => {
      if (!response.writableFinished) this.gone = true;
      this.stop();
    });
  }

  /** Starts the keep-alive clock (call before waiting on the upstream). */
  arm(): void {
    this.schedule();
  }

  get headersSent(): boolean {
    return this.opened;
  }

  get clientGone(): boolean {
    return this.gone;
  }

  /**
   * Queues one frame. Undefined when the socket can take more, else a promise that resolves when it
   * can (or the client is gone): no promise per frame on the common path. The socket's state is the
   * one after the last flushed batch, so at most one tick's frames go past its mark.
   */
  write(frame: string): Promise<void> | undefined {
    if (this.finished || this.gone) return undefined;
    this.open();
    this.schedule();
    this.enqueue(frame);
    return this.blocked;
  }

  /**
   * This tick's batch as bytes, for the byte relay to add its frames to (our envelopes and spans of
   * the provider's reads, copied once when the batch is flushed): everything the upstream reads of one
   * socket read produced leaves in one write, however many HTTP chunks they came in. Frames queued
   * as text before it stay in front. Undefined once the stream is over or the client left.
   */
  bytes(): FrameBytes | undefined {
    if (this.finished || this.gone) return undefined;
    this.open();
    if (this.mixed === undefined) {
      const mixed = new FrameBytes();
      for (const frame of this.batch) mixed.addText(frame);
      this.batch = [];
      this.mixed = mixed;
    }
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      process.nextTick(flushWriter, this);
    }
    return this.mixed;
  }

  /** Whether the socket was over its mark at the last flush: the relay pauses until `afterDrain`. */
  get full(): boolean {
    return this.blocked !== undefined;
  }

  /** Runs `then` once the socket drained (or the client left). */
  afterDrain(then: () => void): void {
    void (this.blocked ?? Promise.resolve()).then(then);
  }

  end(): void {
    this.stop();
    if (this.finished) return;
    this.finished = true;
    const rest = this.take();
    if (this.gone) return;
    // The last frames and the chunked body's terminator leave in one write.
    if (rest.length === 0) this.response.end();
    else this.response.end(rest);
  }

  /**
   * Sends the tick's frames as one chunk of the body, in one socket write: everything one upstream
   * read produced. One write per frame cost Node's chunked framing per frame (length line, frame,
   * CRLF) and a writev of three buffers per frame even when corked; the edge's stream profiles had
   * the socket writes as their top frames.
   */
  flush(): void {
    this.flushScheduled = false;
    if (this.finished) return;
    const frames = this.take();
    if (frames.length === 0 || this.gone) return;
    // Once per tick, not per frame: the keep-alive clock (the text path also refreshes it per write).
    this.schedule();
    // Corked, so the length line, the frames and the CRLF (and the headers, first time) are one write.
    this.response.cork();
    const roomLeft = this.response.write(frames);
    this.response.uncork();
    if (!roomLeft)
      this.blocked ??= this.drained().then(() => {
        this.blocked = undefined;
      });
  }

  /** Stops keep-alives without ending, when the response will be an ordinary JSON error instead. */
  stop(): void {
    this.keepAlive?.cancel();
    this.keepAlive = undefined;
  }

  private enqueue(frame: string): void {
    if (this.mixed) this.mixed.addText(frame);
    else this.batch.push(frame);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    process.nextTick(flushWriter, this);
  }

  private take(): string | Buffer {
    if (this.mixed) {
      const bytes = this.mixed.take();
      this.mixed = undefined;
      if (bytes !== undefined) return bytes;
    }
    if (this.batch.length === 0) return "";
    const frames = this.batch.length === 1 ? (this.batch[0] ?? "") : this.batch.join("");
    this.batch = [];
    return frames;
  }

  private open(): void {
    if (this.opened) return;
    this.opened = true;
    this.response.status(200);
    // No flushHeaders: a frame is always written right after, and the headers go out with it.
    for (const [name, value] of Object.entries(this.framing.headers)) this.response.setHeader(name, value);
  }

  /** Notes a write for the keep-alive clock, arming it the first time. */
  private schedule(): void {
    if (this.finished) return;
    this.lastWrite = Date.now();
    this.keepAlive ??= sharedTimerWheel.schedule(this.keepAliveMs, () => this.keepAliveDue());
  }

  /** The keep-alive deadline: a comment when nothing was written for `keepAliveMs`, then the next one. */
  private keepAliveDue(): void {
    this.keepAlive = undefined;
    if (this.finished || this.gone) return;
    const quiet = Date.now() - this.lastWrite;
    if (quiet >= this.keepAliveMs) {
      this.open();
      this.enqueue(this.framing.keepAlive);
      this.lastWrite = Date.now();
      this.keepAlive = sharedTimerWheel.schedule(this.keepAliveMs, () => this.keepAliveDue());
      return;
    }
    this.keepAlive = sharedTimerWheel.schedule(this.keepAliveMs - quiet, () => this.keepAliveDue());
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.response.off("drain", done);
        this.response.off("close", done);
        resolve();
      };
      this.response.once("drain", done);
      this.response.once("close", done);
    });
  }
}

function flushWriter(writer: SseWriter): void {
  writer.flush();
}
