import { authenticate } from "@gw/auth";
import {
  errorHandler,
  jsonBody,
  mountHealthRoutes,
  notFoundHandler,
  type Readiness,
  rejectMalformedUrl,
  requireServiceToken,
} from "@gw/http";
import express, { type Express } from "express";
import { type BillingContext, type BillingDeps, billingContext } from "./deps.js";
import { creditsRoute } from "./routes/credits.js";
import { billingReadiness } from "./routes/health.js";

export function createApp(
  deps: BillingDeps,
  context: BillingContext = billingContext(deps),
  readiness: Readiness = billingReadiness(deps),
): Express {
  const management = authenticate(context.resolver, "management");
  const app = express();
  app.disable("x-powered-by");
  // Probes first: no token, no body, nothing that could refuse a kubelet.
  mountHealthRoutes(app, readiness);
  // `%ff` or `%00` in a path or query is a 400 here, before a route decodes it or a query carries it.
  app.use(rejectMalformedUrl());
  // Before the body is read: a caller that is not the edge gets nothing from this port.
  if (deps.serviceAuth) app.use(requireServiceToken(deps.serviceAuth.verifier, { callers: ["edge"] }));
  // NUL cannot be stored in PostgreSQL text: refused in the body layer with the field named.
  app.use(jsonBody({ refuseNul: true, timeoutMs: deps.bodyTimeoutMs }));

  app.get("/api/v1/credits", management, creditsRoute(context));

  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}
