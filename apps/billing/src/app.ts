import { authenticate } from "@gw/auth";
import type { Readiness } from "@gw/http";
import { createControlPlaneApp } from "@gw/service";
import type { Express } from "express";
import { type BillingContext, type BillingDeps, billingContext } from "./deps.js";
import { creditsRoute } from "./routes/credits.js";
import { billingReadiness } from "./routes/health.js";
import { transactionsRoute } from "./routes/transactions.js";

export function createApp(
  deps: BillingDeps,
  context: BillingContext = billingContext(deps),
  readiness: Readiness = billingReadiness(deps),
): Express {
  const management = authenticate(context.resolver, "management");
  return createControlPlaneApp({
    ...deps,
    readiness,
    routes: (app) => {
      app.get("/api/v1/credits", management, creditsRoute(context));
      app.get("/api/v1/credits/transactions", management, transactionsRoute(context));
    },
  });
}
