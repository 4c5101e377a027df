import type { Logger } from "@gw/logger";
import type { RequestHandler } from "express";
import { assignRequestId } from "./request-id.js";

/**
 * First on every request: its id (`x-request-id`, see request-id.ts), then one line per request at
 * debug level with that id; key material never appears (only the path and status).
 */
export function requestLog(logger: Logger, now: () => number): RequestHandler {
  return (request, response, next) => {
    const requestId = assignRequestId(request, response);
    // The line is at debug, off in production: no listener, closure or clock read per request then.
    if (!logger.isLevelEnabled("debug")) {
      next();
      return;
    }
    const startedAt = now();
    response.once("close", () => {
      logger.debug(
        {
          requestId,
          method: request.method,
          path: request.path,
          status: response.statusCode,
          durationMs: now() - startedAt,
          generationId: response.getHeader("x-generation-id"),
          aborted: !response.writableFinished,
        },
        "request",
      );
    });
    next();
  };
}
