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

  /** Writes one frame; resolves when the socket can take more (or the client is gone). */
  async write(frame: string): Promise<void> {
    if (this.finished || this.gone) return;
    this.open();
    this.schedule();
    if (!this.response.write(frame)) await this.drained();
  }

  end(): void {
    this.stop();
    if (this.finished) return;
    this.finished = true;
    if (!this.gone) this.response.end();
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
    for (const [name, value] of Object.entries(this.framing.headers)) this.response.setHeader(name, value);
    this.response.flushHeaders();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.finished) return;
    this.timer = setTimeout(() => {
      if (this.finished || this.gone) return;
      this.open();
      this.response.write(this.framing.keepAlive);
      this.schedule();
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
