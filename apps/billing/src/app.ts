import { authenticate } from "@gw/auth";
import { errorHandler, jsonBody, notFoundHandler, requireServiceToken } from "@gw/http";
import express, { type Express } from "express";
import { type BillingContext, type BillingDeps, billingContext } from "./deps.js";
import { creditsRoute } from "./routes/credits.js";
import { healthRoute } from "./routes/health.js";

export function createApp(deps: BillingDeps, context: BillingContext = billingContext(deps)): Express {
  const management = authenticate(context.resolver, "management");
  const app = express();
  app.disable("x-powered-by");
  // Before the body is read: a caller that is not the edge gets nothing from this port.
  if (deps.serviceAuth) app.use(requireServiceToken(deps.serviceAuth.verifier, { callers: ["edge"] }));
  app.use(jsonBody());

  app.get("/healthz", healthRoute(context));
  app.get("/api/v1/credits", management, creditsRoute(context));

  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}
