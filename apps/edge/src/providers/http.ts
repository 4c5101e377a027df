import type { IncomingHttpHeaders } from "node:http";
import { type Deadline, sharedTimerWheel } from "@gw/http";
import { type Dispatcher, Pool } from "undici";
import { cancelledFailure, networkFailure, type UpstreamFailure } from "./failure.js";
import type { UpstreamTimeouts } from "./settings.js";
import { dispatchTimed, endStage } from "./stage-clock.js";
import { UpstreamBody, type UpstreamResponse } from "./upstream-body.js";

export type { BodySink, UpstreamBody, UpstreamResponse } from "./upstream-body.js";

export interface UpstreamRequest {
  method: "GET" | "POST";
  /** Appended to the base URL's path, e.g. `/chat/completions` after `/v1`; taken as is when `rooted`. */
  path: string;
  /** The path is already absolute on the provider's host (the provider proxy's native paths). */
  rooted?: boolean;
  headers: Record<string, string>;
  body?: string;
}

/**
 * The signals one attempt runs under, so a failure can tell "client left" from "took too long":
 * `combined` aborts on either, `total.aborted` says the total timeout was the cause.
 */
export interface AttemptSignals {
  client: AbortSignal;
  total: { readonly aborted: boolean };
  combined: AbortSignal;
}

// The two states of an attempt's total timeout: shared, so an attempt allocates nothing for it.
const TOTAL_RUNNING = Object.freeze({ aborted: false });
const TOTAL_EXPIRED = Object.freeze({ aborted: true });

/**
 * One attempt's abort state: its one AbortController (`combined`), aborted by the client's signal or by
 * its total-timeout deadline on the shared timer wheel, and the running call's abort hook. Both the
 * client listener and the deadline are let go when the attempt's body closes.
 */
class AttemptRun implements AttemptSignals {
  total: { readonly aborted: boolean } = TOTAL_RUNNING;
  readonly combined: AbortSignal;
  /** The running call's abort, while there is one. */
  onAbort: ((reason: unknown) => void) | undefined;
  private readonly controller = new AbortController();
  private readonly deadline: Deadline;
  private closed = false;

  constructor(
    readonly client: AbortSignal,
    totalMs: number,
  ) {
    this.combined = this.controller.signal;
    this.deadline = sharedTimerWheel.schedule(totalMs, () => this.timedOut());
    if (client.aborted) this.abort(client.reason);
    else client.addEventListener("abort", this, { once: true });
  }

  /** The client's abort (the run is its own listener object: no closure per attempt). */
  handleEvent(): void {
    this.abort(this.client.reason);
  }

  /** Whether the attempt is over (its body closed, or it failed before one). */
  get finished(): boolean {
    return this.closed;
  }

  finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.deadline.cancel();
    this.client.removeEventListener("abort", this);
  }

  private timedOut(): void {
    if (this.closed) return;
    this.total = TOTAL_EXPIRED;
    this.abort(new DOMException("the provider call exceeded its total timeout", "TimeoutError"));
  }

  // The combined signal is aborted only here, so the attempt's call is told directly (`onAbort`)
  // instead of through one more listener on the signal.
  private abort(reason: unknown): void {
    if (this.controller.signal.aborted) return;
    this.controller.abort(reason);
    this.onAbort?.(reason);
  }
}

const CONNECT_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);
const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/**
 * One keep-alive connection pool per provider with the three timeouts of the hot path: connect,
 * first byte (response headers) and total (the whole call, body included).
 */
export class UpstreamHttp {
  private readonly pool: Pool;
  private readonly basePath: string;

  constructor(
    baseUrl: string,
    private readonly timeouts: UpstreamTimeouts,
  ) {
    const url = new URL(baseUrl);
    this.basePath = url.pathname.replace(/\/+$/, "");
    this.pool = new Pool(url.origin, {
      connect: { timeout: timeouts.connectMs },
      headersTimeout: timeouts.firstByteMs,
      // The total timeout bounds the body; undici's own body timer would only measure gaps between chunks.
      bodyTimeout: timeouts.totalMs,
      keepAliveTimeout: 30_000,
    });
  }

  /** Open connections not serving a request (undici's pool stats): what the next call can reuse. */
  get idleConnections(): number {
    return this.pool.stats.free;
  }

  /**
   * One attempt's signals: one AbortController, fed by a listener on the client's signal, and the total
   * timeout as a deadline on the shared timer wheel, both let go when the attempt's body closes. Not
   * `AbortSignal.timeout` (it keeps every finished attempt's signal and timer alive for the whole total
   * timeout, 600 s: RSS grew by gigabytes under load), not `AbortSignal.any` (its dependent-signal
   * bookkeeping cost about 1% of the edge's CPU per request), and not a `setTimeout` per attempt (a
   * Timeout object, an async-hooks resource and a timer-list insertion for a deadline that almost
   * never fires).
   */
  signals(client: AbortSignal): AttemptSignals {
    return new AttemptRun(client, this.timeouts.totalMs);
  }

  /**
   * Resolves with the response once its headers arrived (its body read through undici's dispatch
   * callbacks, see `UpstreamBody`), or with the failure when no response arrived. Never throws.
   */
  send(request: UpstreamRequest, signals: AttemptSignals): Promise<UpstreamResponse | UpstreamFailure> {
    endStage(signals.client, "prepare");
    // Only a live run of `signals()` is sent: an aborted or finished one (or any other object) fails.
    const attempt = signals instanceof AttemptRun && !signals.finished ? signals : undefined;
    if (signals.combined.aborted || attempt === undefined) {
      if (signals instanceof AttemptRun) signals.finish();
      return Promise.resolve(classifyError(signals.combined.reason, signals));
    }
    return new Promise((resolve) => {
      const handler = new ResponseHandler(signals, resolve, () => attempt.finish());
      attempt.onAbort = (reason) => handler.abort(reason);
      try {
        dispatchTimed(signals.client, () =>
          this.pool.dispatch(
            {
              method: request.method,
              path: request.rooted ? request.path : `${this.basePath}${request.path}`,
              headers: request.headers,
              body: request.body ?? null,
            },
            handler,
          ),
        );
      } catch (error) {
        handler.onResponseError(undefined, error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /**
   * A client's native path on this host: `/v1/chat/completions` against a `/v1` base stays as it is (the
   * client already named the version); a path outside the base's path is placed under it.
   */
  nativePath(path: string): string {
    if (this.basePath === "" || path === this.basePath || path.startsWith(`${this.basePath}/`)) return path;
    return `${this.basePath}${path}`;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/**
 * One call's dispatch callbacks: the promise settles at the response's headers (or its failure), then
 * the body takes the reads. An abort before the request reached a socket is applied when it does (as
 * `pool.request`'s signal handling does), after the headers it fails the body.
 */
class ResponseHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private body: UpstreamBody | undefined;
  private abortReason: Error | undefined;
  private settled = false;

  constructor(
    private readonly signals: AttemptSignals,
    private readonly resolve: (value: UpstreamResponse | UpstreamFailure) => void,
    private readonly finished: () => void,
  ) {}

  abort(reason: unknown): void {
    const error = reason instanceof Error ? reason : new Error(String(reason));
    if (this.body) this.body.abort(error);
    else if (this.controller) this.controller.abort(error);
    else this.abortReason = error;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.abortReason) controller.abort(this.abortReason);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
  ): void {
    endStage(this.signals.client, "first_byte");
    const body = new UpstreamBody(this.finished);
    body.attach(controller);
    this.body = body;
    this.settled = true;
    this.resolve({ status: statusCode, headers, body });
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.body?.push(chunk);
  }

  onResponseEnd(): void {
    this.body?.finish();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.body) {
      this.body.fail(error);
      return;
    }
    if (this.settled) return;
    this.settled = true;
    this.finished();
    this.resolve(classifyError(error, this.signals));
  }
}

/** Maps whatever undici or an abort threw to a failure kind (also used for errors while reading a body). */
export function classifyError(error: unknown, signals: AttemptSignals): UpstreamFailure {
  if (signals.client.aborted) return cancelledFailure();
  if (signals.total.aborted) return networkFailure("timeout", "the provider call exceeded its total timeout");
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code && TIMEOUT_CODES.has(code)) return networkFailure("timeout", message);
  if (code && CONNECT_CODES.has(code)) return networkFailure("connect", message);
  return networkFailure("protocol", message);
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = "code" in error ? error.code : undefined;
  if (typeof code === "string") return code;
  const cause = "cause" in error ? error.cause : undefined;
  return cause === undefined ? undefined : errorCode(cause);
}

export function isFailure(value: UpstreamResponse | UpstreamFailure): value is UpstreamFailure {
  return "retryable" in value;
}
