import {
  errorHandler,
  jsonBody,
  mountHealthRoutes,
  notFoundHandler,
  type Readiness,
  rejectMalformedUrl,
  requireServiceToken,
} from "@gw/http";
import type { Logger } from "@gw/logger";
import type { ServiceAuth } from "@gw/rpc";
import express, { type Express } from "express";

export interface ControlPlaneAppOptions {
  logger: Logger;
  readiness: Readiness;
  serviceAuth?: ServiceAuth | undefined;
  bodyTimeoutMs?: number | undefined;
  /** The app's routes, mounted after the JSON body parser. */
  routes(app: Express): void;
  /** Routes that read their body themselves, mounted before the JSON body parser (behind service auth). */
  beforeBody?(app: Express): void;
}

/**
 * A control-plane app's REST server: probes, URL check, service auth and body parsing before the
 * app's routes; the catalogue's 404 and error rendering after them.
 */
export function createControlPlaneApp(options: ControlPlaneAppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  // Probes first: no token, no body, nothing that could refuse a kubelet.
  mountHealthRoutes(app, options.readiness);
  // `%ff` or `%00` in a path or query is a 400 here, before a route decodes it or a query carries it.
  app.use(rejectMalformedUrl());
  // Before the body is read: a caller that is not the edge gets nothing from this port.
  if (options.serviceAuth) app.use(requireServiceToken(options.serviceAuth.verifier, { callers: ["edge"] }));
  options.beforeBody?.(app);
  // NUL cannot be stored in PostgreSQL text: refused in the body layer with the field named.
  app.use(jsonBody({ refuseNul: true, timeoutMs: options.bodyTimeoutMs }));
  options.routes(app);
  app.use(notFoundHandler());
  app.use(errorHandler(options.logger));
  return app;
}
