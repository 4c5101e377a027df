import { Readiness } from "@gw/http";
import type { Request, Response } from "express";
import type { EdgeContext } from "../pipeline/edge-context.js";
import type { Route } from "./route.js";

/**
 * The edge is ready once a catalogue snapshot is loaded (no request can be planned without one). The
 * event backlog is detail, never a failure: usage waits in the journal while the broker is away, and
 * taking every edge out of rotation for a broker outage would turn a delay into an outage. Billing
 * and keys are not asked either: every edge shares them, so their outage is answered per request
 * (503 in the surface's shape) rather than by emptying the load balancer.
 */
export function edgeReadiness(context: Pick<EdgeContext, "catalog" | "bus">): Readiness {
  return new Readiness({
    catalog: () => {
      const catalog = context.catalog.status();
      return {
        ok: catalog.loaded,
        version: catalog.version ?? null,
        last_refresh_at:
          catalog.lastRefreshAt === undefined ? null : new Date(catalog.lastRefreshAt).toISOString(),
        last_error: catalog.lastError ?? null,
      };
    },
    events: () => ({ ok: true, backlog: context.bus.backlog() }),
  });
}

/** GET /readyz: 200 when every check passes, else 503 (`not_ready`, or `draining` once a stop began). */
export function readyzRoute(context: Pick<EdgeContext, "readiness">): Route {
  const handler = async (_request: Request, response: Response): Promise<void> => {
    const report = await context.readiness.report();
    response.status(report.status === "ready" ? 200 : 503).json(report);
  };
  return { method: "get", path: "/readyz", handlers: [handler] };
}
