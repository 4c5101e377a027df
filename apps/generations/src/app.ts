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
import type { GenerationsDeps } from "./deps.js";
import { activityRoute } from "./routes/activity.js";
import { getGenerationRoute } from "./routes/get-generation.js";
import { generationsReadiness } from "./routes/health.js";
import { listGenerationsRoute } from "./routes/list-generations.js";

export function createApp(deps: GenerationsDeps, readiness: Readiness = generationsReadiness(deps)): Express {
  const db = deps.database.db;
  const anyKey = authenticate(deps.resolver, "any");
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

  app.get("/api/v1/generation", anyKey, getGenerationRoute(db));
  const managementKey = authenticate(deps.resolver, "management");
  app.get("/api/v1/generations", managementKey, listGenerationsRoute(db));
  app.get("/api/v1/activity", managementKey, activityRoute(db));

  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}
