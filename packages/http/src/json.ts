import { GatewayError } from "@gw/errors";
import express, { type NextFunction, type Request, type RequestHandler } from "express";
import { hasBody, isPlainJsonRequest, parseLimit, parseStrictJson, readBody } from "./json-body-reader.js";

export const DEFAULT_BODY_LIMIT = "10mb";

/**
 * JSON body parsing whose failures are catalogue errors: malformed JSON → 400, over the limit → 413.
 * Plain `application/json` bodies are read here directly (see json-body-reader.ts); every other body
 * goes through express's parser, whose errors carry a `type` and are translated here, so no route
 * renders a 500.
 */
export function jsonBody(limit: string = DEFAULT_BODY_LIMIT): RequestHandler {
  const parse = express.json({ limit, type: ["application/json", "application/*+json"] });
  const limitBytes = parseLimit(limit);
  return (request, response, next) => {
    if (limitBytes !== undefined && hasBody(request) && isPlainJsonRequest(request)) {
      readJson(request, limitBytes, next);
      return;
    }
    parse(request, response, (error?: unknown) => {
      if (!error) {
        next();
        return;
      }
      next(translateBodyError(error));
    });
  };
}

function readJson(request: Request, limit: number, next: NextFunction): void {
  readBody(request, limit, (failure, body) => {
    if (failure === "too_large") return next(tooLarge());
    if (failure || !body) return next(unreadable());
    const parsed = parseStrictJson(body);
    if (!parsed.ok) return next(malformed());
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
const unreadable = () =>
  new GatewayError("invalid_request", "request body could not be read", { code: "invalid_body" });

function translateBodyError(error: unknown): GatewayError {
  const type = typeof error === "object" && error !== null && "type" in error ? String(error.type) : "";
  if (type === "entity.too.large") return tooLarge();
  if (type === "entity.parse.failed") return malformed();
  if (type === "encoding.unsupported" || type === "charset.unsupported") {
    return new GatewayError("invalid_request", "unsupported request body encoding", {
      code: "unsupported_encoding",
    });
  }
  return unreadable();
}
