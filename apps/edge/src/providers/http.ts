import type { IncomingHttpHeaders } from "node:http";
import { type Dispatcher, Pool } from "undici";
import { cancelledFailure, networkFailure, type UpstreamFailure } from "./failure.js";
import type { UpstreamTimeouts } from "./settings.js";
import { dispatchTimed, endStage } from "./stage-clock.js";

export interface UpstreamResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Dispatcher.ResponseData["body"];
}

export interface UpstreamRequest {
  method: "GET" | "POST";
  /** Appended to the base URL's path, e.g. `/chat/completions` after `/v1`; taken as is when `rooted`. */
  path: string;
  /** The path is already absolute on the provider's host (the provider proxy's native paths). */
  rooted?: boolean;
  headers: Record<string, string>;
  body?: string;
}

/** The signals one attempt runs under, so a failure can tell "client left" from "took too long". */
export interface AttemptSignals {
  client: AbortSignal;
  total: AbortSignal;
  combined: AbortSignal;
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
   * The total timeout is a timer of our own, cleared when the attempt's body closes: an
   * `AbortSignal.timeout` would keep every finished attempt's signals and timer alive for the whole
   * total timeout (600 s), which the bench measured as RSS growing by gigabytes under load. The
   * combined signal is a plain controller fed by one listener on the client's signal (removed when the
   * attempt ends), not `AbortSignal.any`, whose dependent-signal bookkeeping (WeakRefs in both sources)
   * cost about 1% of the edge's CPU per request.
   */
  signals(client: AbortSignal): AttemptSignals {
    const total = new AbortController();
    const combined = new AbortController();
    const timer = setTimeout(() => {
      const reason = new DOMException("the provider call exceeded its total timeout", "TimeoutError");
      total.abort(reason);
      combined.abort(reason);
    }, this.timeouts.totalMs);
    timer.unref();
    const onClientAbort = (): void => combined.abort(client.reason);
    if (client.aborted) onClientAbort();
    else client.addEventListener("abort", onClientAbort, { once: true });
    const signals = { client, total: total.signal, combined: combined.signal };
    this.attempts.set(signals, { timer, onClientAbort });
    return signals;
  }

  private readonly attempts = new WeakMap<
    AttemptSignals,
    { timer: NodeJS.Timeout; onClientAbort: () => void }
  >();

  private finished(signals: AttemptSignals): void {
    const attempt = this.attempts.get(signals);
    if (!attempt) return;
    clearTimeout(attempt.timer);
    signals.client.removeEventListener("abort", attempt.onClientAbort);
    this.attempts.delete(signals);
  }

  /** Resolves with the response, or with the failure when no response arrived. Never throws. */
  async send(request: UpstreamRequest, signals: AttemptSignals): Promise<UpstreamResponse | UpstreamFailure> {
    endStage(signals.client, "prepare");
    try {
      const response = await dispatchTimed(signals.client, () =>
        this.pool.request({
          method: request.method,
          path: request.rooted ? request.path : `${this.basePath}${request.path}`,
          headers: request.headers,
          body: request.body ?? null,
          signal: signals.combined,
        }),
      );
      endStage(signals.client, "first_byte");
      // Read to the end, failed or abandoned: the body closes and the attempt is over.
      response.body.once("close", () => this.finished(signals));
      return { status: response.statusCode, headers: response.headers, body: response.body };
    } catch (error) {
      this.finished(signals);
      return classifyError(error, signals);
    }
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
