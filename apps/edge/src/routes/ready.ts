import { GatewayError, openAiErrorBody } from "@gw/errors";
import type { Request, Response } from "express";
import type { EdgeContext } from "../pipeline/edge-context.js";
import type { Route } from "./route.js";

/**
 * GET /readyz: ready once a catalogue snapshot is loaded (no request can be planned without one). The
 * bus backlog is reported either way: events waiting for the broker are never dropped, only delayed.
 */
export function readyzRoute(context: EdgeContext): Route {
  const handler = (_request: Request, response: Response): void => {
    const catalog = context.catalog.status();
    const details = {
      catalog: {
        loaded: catalog.loaded,
        version: catalog.version ?? null,
        last_refresh_at:
          catalog.lastRefreshAt === undefined ? null : new Date(catalog.lastRefreshAt).toISOString(),
        last_error: catalog.lastError ?? null,
      },
      bus: { backlog: context.bus.backlog() },
    };
    if (!catalog.loaded) {
      // Answered here rather than thrown: probes poll this, and the error handler logs every 5xx.
      const error = new GatewayError("service_unavailable", "the model catalogue is not loaded yet", {
        code: "not_ready",
        metadata: details,
      });
      response.status(error.status).json(openAiErrorBody(error));
      return;
    }
    response.json({ status: "ready", ...details });
  };
  return { method: "get", path: "/readyz", handlers: [handler] };
}
