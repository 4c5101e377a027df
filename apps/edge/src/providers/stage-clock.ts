import { subscribe } from "node:diagnostics_channel";
import { performance } from "node:perf_hooks";

/**
 * The stages of one request on the edge, in the order they happen, each ending at its mark:
 * `receive` (routing, flood guard, reading and parsing the JSON body), `auth` (the API key),
 * `parse` (the request schema), `plan`, `admit`, `prepare` (the upstream request built), `connect`
 * (a pooled connection taken or opened, and the request's headers written to it), `first_byte` (the
 * upstream's response headers), `body` (the upstream's body read and validated), `publish` (usage
 * measured, the hold ended, the usage event published and journalled), `write` (the answer rendered
 * and serialised). `total` is the sum. Only names and durations: nothing about the caller or the
 * request.
 *
 * It lives here, below the pipeline, because the upstream call (providers/http.ts) marks `prepare`,
 * `connect` and `first_byte` and knows its request only by the client's abort signal; the pipeline
 * (pipeline/server-timing.ts) links that signal to the response and writes the header.
 */
export type Stage =
  | "receive"
  | "auth"
  | "parse"
  | "plan"
  | "admit"
  | "prepare"
  | "connect"
  | "first_byte"
  | "body"
  | "publish"
  | "write";

/** One request's stage durations; each `end` closes the stage that began at the previous mark. */
export class StageTimes {
  private readonly startedAt = performance.now();
  private last = this.startedAt;
  private readonly parts: string[] = [];

  end(stage: Stage): void {
    const now = performance.now();
    this.parts.push(`${stage};dur=${(now - this.last).toFixed(3)}`);
    this.last = now;
  }

  /** The `Server-Timing` header value (RFC 8941 list, W3C Server Timing syntax). */
  header(): string {
    return [...this.parts, `total;dur=${(this.last - this.startedAt).toFixed(3)}`].join(", ");
  }
}

const bySignal = new WeakMap<AbortSignal, StageTimes>();
/** Set only while `pool.request` runs synchronously, so undici's request-creation event can claim it. */
let dispatching: StageTimes | undefined;
const byUndiciRequest = new WeakMap<object, StageTimes>();
let subscribed = false;

/** Ties a request's clock to the client abort signal the upstream call carries. */
export function clockSignal(signal: AbortSignal, times: StageTimes): void {
  bySignal.set(signal, times);
}

/** Off (no clock tied to the signal), this is one WeakMap miss. */
export function endStage(signal: AbortSignal, stage: Stage): void {
  bySignal.get(signal)?.end(stage);
}

/** Runs undici's `pool.request` call so that its `connect` stage can be told from `first_byte`. */
export function dispatchTimed<T>(signal: AbortSignal, dispatch: () => T): T {
  dispatching = bySignal.get(signal);
  try {
    return dispatch();
  } finally {
    dispatching = undefined;
  }
}

/** Listens for undici's request events once per process; only called when SERVER_TIMING=true. */
export function subscribeToUndici(): void {
  if (subscribed) return;
  subscribed = true;
  // Both are published synchronously: `create` inside pool.request, `sendHeaders` when the request's
  // headers are written to its socket (after a connection was taken or opened).
  subscribe("undici:request:create", (message) => {
    const request = (message as { request: object }).request;
    if (dispatching) byUndiciRequest.set(request, dispatching);
  });
  subscribe("undici:client:sendHeaders", (message) => {
    byUndiciRequest.get((message as { request: object }).request)?.end("connect");
  });
}
