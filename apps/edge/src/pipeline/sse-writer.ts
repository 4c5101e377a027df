import type { Response } from "express";
import { SSE_HEADERS, SSE_KEEP_ALIVE } from "../translate/sse.js";
import type { StreamFraming } from "../translate/surface.js";

export const SSE_FRAMING: StreamFraming = { headers: SSE_HEADERS, keepAlive: SSE_KEEP_ALIVE };

/**
 * Writes an SSE response with backpressure and keep-alives. Headers go out lazily, with the first
 * frame or the first keep-alive, so a request that fails before either still gets a proper error
 * status. While nothing else is written a `: keep-alive` comment goes out every `keepAliveMs`.
 */
export class SseWriter {
  private opened = false;
  private finished = false;
  private gone = false;
  private corked = false;
  private timer: NodeJS.Timeout | undefined;

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
   * Writes one frame. Undefined when the socket can take more, else a promise that resolves when it
   * can (or the client is gone): no promise per frame on the common path.
   */
  write(frame: string): Promise<void> | undefined {
    if (this.finished || this.gone) return undefined;
    this.open();
    this.schedule();
    this.cork();
    return this.response.write(frame) ? undefined : this.drained();
  }

  end(): void {
    this.stop();
    if (this.finished) return;
    this.finished = true;
    this.uncork();
    if (!this.gone) this.response.end();
  }

  /**
   * Frames written in the same tick (everything one upstream read produced) leave in one socket
   * write: the profile of a 20-chunk stream had a write syscall per frame plus one for the headers
   * as the edge's top frames (writev, writeUtf8String, writeBuffer).
   */
  private cork(): void {
    if (this.corked) return;
    this.corked = true;
    this.response.cork();
    process.nextTick(uncorkWriter, this);
  }

  uncork(): void {
    if (!this.corked) return;
    this.corked = false;
    this.response.uncork();
  }

  /** Stops keep-alives without ending, when the response will be an ordinary JSON error instead. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private open(): void {
    if (this.opened) return;
    this.opened = true;
    this.response.status(200);
    // No flushHeaders: a frame is always written right after, and the headers go out with it.
    for (const [name, value] of Object.entries(this.framing.headers)) this.response.setHeader(name, value);
  }

  /** (Re)starts the keep-alive clock: one timer per stream, refreshed (not re-created) on every frame. */
  private schedule(): void {
    if (this.finished) return;
    if (this.timer) {
      this.timer.refresh();
      return;
    }
    this.timer = setTimeout(() => {
      if (this.finished || this.gone) return;
      this.open();
      this.response.write(this.framing.keepAlive);
      this.timer?.refresh();
    }, this.keepAliveMs);
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

function uncorkWriter(writer: SseWriter): void {
  writer.uncork();
}
