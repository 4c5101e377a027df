import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";

/** Where a relayed body's reads go, pushed as undici delivers them (the byte relay, see `relay`). */
export interface BodySink {
  /** One upstream read; false = stop reading until `UpstreamBody.resume()`. */
  data(chunk: Buffer): boolean;
  end(): void;
  error(error: Error): void;
}

// Unread bytes a pulled body holds before it stops reading from the socket (as a Readable's
// highWaterMark would): backpressure reaches the upstream either way.
const HIGH_WATER_BYTES = 64 * 1024;

type Waiter = { resolve: (result: IteratorResult<Buffer>) => void; reject: (error: Error) => void };

/**
 * An upstream response body read through undici's dispatch callbacks instead of `pool.request`'s
 * Readable: no stream machinery, no promise per chunk for a relayed body. It is consumed once, either
 * pushed to a sink (`relay`, pause/resume for backpressure) or pulled (`for await`, `text()`, `json()`,
 * `dump()`) by the paths that need the whole body or translate it. `onClose` runs once when the
 * consumer is done with it: read to the end, failed, or dumped; so the attempt's total timeout still
 * covers bytes undici delivered but nobody read yet.
 */
export class UpstreamBody implements AsyncIterable<Buffer> {
  private controller: Dispatcher.DispatchController | undefined;
  private queue: Buffer[] = [];
  private queued = 0;
  private ended = false;
  private failure: Error | undefined;
  private closed = false;
  private sink: BodySink | undefined;
  private waiter: Waiter | undefined;
  private discard: { limit: number; seen: number; done: () => void; fail: (e: Error) => void } | undefined;

  constructor(private readonly onClose: () => void) {}

  /** Called by the handler once undici has started the response. */
  attach(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
  }

  // ── from undici ──────────────────────────────────────────────────────────

  push(chunk: Buffer): void {
    if (this.closed) return;
    if (this.discard) {
      this.discard.seen += chunk.length;
      if (this.discard.seen > this.discard.limit) this.abort(new Error("body over the drain limit"));
      return;
    }
    if (this.sink) {
      if (!this.sink.data(chunk)) this.controller?.pause();
      return;
    }
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = undefined;
      waiter.resolve({ done: false, value: chunk });
      return;
    }
    this.queue.push(chunk);
    this.queued += chunk.length;
    if (this.queued >= HIGH_WATER_BYTES) this.controller?.pause();
  }

  finish(): void {
    if (this.closed) return;
    this.ended = true;
    if (this.discard) {
      this.closeWith(undefined);
      return;
    }
    if (this.sink) {
      this.close();
      this.sink.end();
      return;
    }
    if (this.waiter && this.queue.length === 0) {
      const waiter = this.waiter;
      this.waiter = undefined;
      this.close();
      waiter.resolve({ done: true, value: undefined });
    }
  }

  /** undici's error, or the attempt's abort (client gone, total timeout) reaching a body not yet read. */
  fail(error: Error): void {
    if (this.closed) return;
    this.failure = error;
    if (this.discard) {
      this.closeWith(error);
      return;
    }
    this.queue = [];
    this.queued = 0;
    this.close();
    if (this.sink) this.sink.error(error);
    else if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = undefined;
      waiter.reject(error);
    }
  }

  // ── for the consumer ─────────────────────────────────────────────────────

  /** Pushes every read (queued ones first) to `sink`; the sink pauses by returning false. */
  relay(sink: BodySink): void {
    this.sink = sink;
    const queued = this.queue;
    this.queue = [];
    this.queued = 0;
    let room = true;
    for (const chunk of queued) room = sink.data(chunk) && room;
    if (this.failure) {
      this.close();
      sink.error(this.failure);
    } else if (this.ended) {
      this.close();
      sink.end();
    } else if (!room) this.controller?.pause();
    else this.controller?.resume();
  }

  /** Lets a relaying sink's reads flow again. */
  resume(): void {
    if (!this.closed) this.controller?.resume();
  }

  /** Gives up on the body: the upstream request is aborted (its connection closed). */
  abort(reason: Error): void {
    if (this.closed) return;
    // After undici's end the request is over: only the unread bytes are dropped.
    if (!this.ended) this.controller?.abort(reason);
    this.fail(reason);
  }

  [Symbol.asyncIterator](): AsyncIterator<Buffer> {
    return { next: () => this.next(), return: () => this.stop() };
  }

  private next(): Promise<IteratorResult<Buffer>> {
    const chunk = this.queue.shift();
    if (chunk) {
      this.queued -= chunk.length;
      if (this.queued < HIGH_WATER_BYTES) this.controller?.resume();
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.failure) return Promise.reject(this.failure);
    if (this.ended || this.closed) {
      this.close();
      return Promise.resolve({ done: true, value: undefined });
    }
    this.controller?.resume();
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  /**
   * Leaving a `for await` early leaves the body as it is (a Readable's `destroyOnReturn: false`): the
   * caller dumps it or lets the attempt's abort end it, without an AbortError built for nothing.
   */
  private stop(): Promise<IteratorResult<Buffer>> {
    return Promise.resolve({ done: true, value: undefined });
  }

  async bytes(): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const chunk of this) parts.push(chunk);
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  }

  async text(): Promise<string> {
    return (await this.bytes()).toString("utf8");
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  /**
   * Reads the rest off and throws it away, so the connection can serve the next request; past
   * `limit` bytes the request is aborted instead (the connection closed).
   */
  dump(options: { limit?: number } = {}): Promise<void> {
    if (this.dumped) return this.dumped;
    this.dumped = this.startDump(options.limit ?? 128 * 1024);
    return this.dumped;
  }

  private dumped: Promise<void> | undefined;

  private startDump(limit: number): Promise<void> {
    if (this.closed) return this.failure ? Promise.reject(this.failure) : Promise.resolve();
    const seen = this.queued;
    this.queue = [];
    this.queued = 0;
    return new Promise((done, fail) => {
      this.discard = { limit, seen, done, fail };
      if (seen > limit) this.abort(new Error("body over the drain limit"));
      else if (this.ended) this.closeWith(undefined);
      else this.controller?.resume();
    });
  }

  private closeWith(error: Error | undefined): void {
    const discard = this.discard;
    this.close();
    if (!discard) return;
    if (error) discard.fail(error);
    else discard.done();
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
  }
}

/** The response an upstream call resolves with once its headers arrived. */
export interface UpstreamResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: UpstreamBody;
}
