import { GatewayError } from "@gw/errors";
import express, { type RequestHandler } from "express";

export const DEFAULT_BODY_LIMIT = "10mb";

/**
 * JSON body parsing whose failures are catalogue errors: malformed JSON → 400, over the limit → 413.
 * Express's own parser errors carry a `type`; they are translated here so no route renders a 500.
 */
export function jsonBody(limit: string = DEFAULT_BODY_LIMIT): RequestHandler {
  const parse = express.json({ limit, type: ["application/json", "application/*+json"] });
  return (request, response, next) => {
    parse(request, response, (error?: unknown) => {
      if (!error) {
        next();
        return;
      }
      next(translateBodyError(error));
    });
  };
}

function translateBodyError(error: unknown): GatewayError {
  const type = typeof error === "object" && error !== null && "type" in error ? String(error.type) : "";
  if (type === "entity.too.large") {
    return new GatewayError("request_too_large", "request body is larger than the limit", {
      code: "body_too_large",
    });
  }
  if (type === "entity.parse.failed") {
    return new GatewayError("invalid_request", "request body is not valid JSON", { code: "invalid_json" });
  }
  if (type === "encoding.unsupported" || type === "charset.unsupported") {
    return new GatewayError("invalid_request", "unsupported request body encoding", {
      code: "unsupported_encoding",
    });
  }
  return new GatewayError("invalid_request", "request body could not be read", { code: "invalid_body" });
}
