import { GatewayError } from "@gw/errors";
import express, { type NextFunction, type Request, type RequestHandler } from "express";
import { unreadableCharset } from "./charset.js";
import { hasBody, isPlainJsonRequest, parseLimit, parseStrictJson, readBody } from "./json-body-reader.js";
import { DEFAULT_MAX_JSON_DEPTH, exceedsDepth, unstorableTextPath } from "./json-depth.js";
import { sharedTimerWheel } from "./timer-wheel.js";

export const DEFAULT_BODY_LIMIT = "10mb";
/** Why a string PostgreSQL cannot store is refused (see unstorableTextPath). */
export const UNSTORABLE_TEXT = "must not contain NUL characters or unpaired surrogates";
/** A body still arriving after this long is answered 408 (below the edge's 30 s pass-through bound). */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

export interface BodyLimits {
  /** Size, as `10mb`; over it → 413. */
  limit?: string;
  /** Nesting of arrays/objects; deeper → 400 `json_too_deep`. */
  maxDepth?: number;
  /** From the request's start until its body has arrived; later → 408 `body_timeout`. 0 = none. */
  timeoutMs?: number;
  /**
   * A NUL or an unpaired surrogate in any string or key → 400 naming the field (the control plane stores
   * text in PostgreSQL, which can store neither).
   */
  refuseNul?: boolean;
}

/**
 * The one body-reading layer of every app: JSON whose failures are catalogue errors (malformed → 400,
 * too deep → 400, over the size limit → 413, too slow → 408), so no route renders a 500 on any body.
 * Plain `application/json` bodies are read here directly (see json-body-reader.ts); every other body
 * goes through express's parser, whose errors carry a `type` and are translated here.
 */
export function jsonBody(limits: string | BodyLimits = DEFAULT_BODY_LIMIT): RequestHandler {
  const options = typeof limits === "string" ? { limit: limits } : limits;
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const timeoutMs = options.timeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const refuseNul = options.refuseNul ?? false;
  const parse = express.json({
    limit,
    type: ["application/json", "application/*+json"],
    // Runs on the decoded (inflated) bytes before express parses them.
    verify: (_request, _response, buffer) => {
      // body-parser keeps a thrown error's `type`; translateBodyError maps it to json_too_deep.
      if (exceedsDepth(buffer.toString("utf8"), maxDepth)) {
        throw Object.assign(new Error("JSON nests too deeply"), { type: "entity.too.deep" });
      }
    },
  });
  const limitBytes = parseLimit(limit);
  return (request, response, next) => {
    // Before anything reads the body: every check below then sees the text the routes get.
    const charset = hasBody(request) ? unreadableCharset(request) : undefined;
    if (charset) return next(charset);
    const finish = once(request, timeoutMs, next, refuseNul);
    if (limitBytes !== undefined && hasBody(request) && isPlainJsonRequest(request)) {
      readJson(request, limitBytes, maxDepth, finish);
      return;
    }
    parse(request, response, (error?: unknown) =>
      finish(error === undefined ? undefined : translateBodyError(error)),
    );
  };
}

/**
 * The same layer for a route that takes its body as text whatever the content type (wallet sign-in,
 * whose proof that is not JSON must be that route's own 401, not the JSON parser's 400): the same
 * size limit, time bound and catalogue errors; `request.body` is the text.
 */
export function textBody(limits: Pick<BodyLimits, "limit" | "timeoutMs"> = {}): RequestHandler {
  const parse = express.text({ type: () => true, limit: limits.limit ?? DEFAULT_BODY_LIMIT });
  const timeoutMs = limits.timeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  return (request, response, next) => {
    const charset = hasBody(request) ? unreadableCharset(request) : undefined;
    if (charset) return next(charset);
    const finish = once(request, timeoutMs, next, false);
    parse(request, response, (error?: unknown) =>
      finish(error === undefined ? undefined : translateBodyError(error)),
    );
  };
}

/**
 * `next` at most once: with the body read, with its failure, or with a 408 when the body is still
 * arriving after `timeoutMs`. The 408 closes the connection, since the rest of that body is never read.
 */
function once(request: Request, timeoutMs: number, next: NextFunction, refuseNul: boolean): NextFunction {
  let done = false;
  // On the shared wheel, not a Node timer per request (timer-wheel.ts): fires within a tick of the bound.
  const deadline =
    timeoutMs > 0
      ? sharedTimerWheel.schedule(timeoutMs, () => {
          if (done) return;
          done = true;
          next(slowBody());
        })
      : undefined;
  return (error?: unknown) => {
    if (done) return;
    done = true;
    deadline?.cancel();
    // This runs in the body stream's 'end' callback, outside express's try/catch: whatever the checks
    // throw goes to the error handler as this request's error, never up to the process (issue 33).
    let checked: unknown = error;
    if (error === undefined && refuseNul) {
      try {
        const field = unstorableTextPath(request.body);
        if (field)
          checked = new GatewayError("invalid_request", `${field}: ${UNSTORABLE_TEXT}`, {
            code: "invalid_request",
            metadata: { field },
          });
      } catch (failure) {
        checked = failure;
      }
    }
    next(checked);
  };
}

function readJson(request: Request, limit: number, maxDepth: number, next: NextFunction): void {
  readBody(request, limit, (failure, body) => {
    if (failure === "too_large") return next(tooLarge());
    if (failure || !body) return next(unreadable());
    // In the stream's 'end' callback, outside express's try/catch: a throw is this request's error.
    let parsed: ReturnType<typeof parseStrictJson>;
    try {
      parsed = parseStrictJson(body, maxDepth);
    } catch (error) {
      return next(error);
    }
    if (!parsed.ok) return next(parsed.reason === "too_deep" ? tooDeep() : malformed());
    request.body = parsed.value;
    next();
  });
}

const tooLarge = () =>
  new GatewayError("request_too_large", "request body is larger than the limit", {
    code: "body_too_large",
  });
const malformed = () =>
  new GatewayError("invalid_request", "request body is not valid JSON", { code: "invalid_json" });
const tooDeep = () =>
  new GatewayError("invalid_request", "request body nests arrays or objects too deeply", {
    code: "json_too_deep",
  });
const unreadable = () =>
  new GatewayError("invalid_request", "request body could not be read", { code: "invalid_body" });
const slowBody = () =>
  new GatewayError("request_timeout", "request body did not arrive in time", {
    code: "body_timeout",
    headers: { connection: "close" },
  });

function translateBodyError(error: unknown): GatewayError {
  const type = typeof error === "object" && error !== null && "type" in error ? String(error.type) : "";
  if (type === "entity.too.large") return tooLarge();
  if (type === "entity.too.deep") return tooDeep();
  if (type === "entity.parse.failed") return malformed();
  if (type === "encoding.unsupported" || type === "charset.unsupported") {
    return new GatewayError("invalid_request", "unsupported request body encoding", {
      code: "unsupported_encoding",
    });
  }
  return unreadable();
}
