import { authenticate } from "@gw/auth";
import type { Readiness } from "@gw/http";
import { createControlPlaneApp } from "@gw/service";
import type { Express } from "express";
import type { GenerationsDeps } from "./deps.js";
import { activityRoute } from "./routes/activity.js";
import { getGenerationRoute } from "./routes/get-generation.js";
import { generationsReadiness } from "./routes/health.js";
import { listGenerationsRoute } from "./routes/list-generations.js";

export function createApp(deps: GenerationsDeps, readiness: Readiness = generationsReadiness(deps)): Express {
  const db = deps.database.db;
  const anyKey = authenticate(deps.resolver, "any");
  const managementKey = authenticate(deps.resolver, "management");
  return createControlPlaneApp({
    ...deps,
    readiness,
    routes: (app) => {
      app.get("/api/v1/generation", anyKey, getGenerationRoute(db));
      app.get("/api/v1/generations", managementKey, listGenerationsRoute(db));
      app.get("/api/v1/activity", managementKey, activityRoute(db));
    },
  });
}
