import type { Logger } from "@gw/logger";
import type { RequestHandler } from "express";

/** One line per request at debug level; key material never appears (only the path and status). */
export function requestLog(logger: Logger, now: () => number): RequestHandler {
  return (request, response, next) => {
    // The line is at debug, off in production: no listener, closure or clock read per request then.
    if (!logger.isLevelEnabled("debug")) {
      next();
      return;
    }
    const startedAt = now();
    response.once("close", () => {
      logger.debug(
        {
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
