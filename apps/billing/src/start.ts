import { randomBytes } from "node:crypto";
import { type ListenOptions, type RunningControlPlane, startControlPlane } from "@gw/service";
import { readEvmAuthorization } from "@gw/x402";
import { createApp } from "./app.js";
import { subscribePayments } from "./consumers/payments.js";
import { subscribeUsage } from "./consumers/usage.js";
import { type BillingDeps, billingContext } from "./deps.js";
import { createGrpcServer } from "./grpc.js";
import { startLedgerListener } from "./notifications/ledger-listener.js";
import { startReconciler } from "./payments/reconcile.js";
import { billingReadiness } from "./routes/health.js";

export type { ListenOptions };
export type RunningBilling = RunningControlPlane;

/**
 * Serves REST and gRPC, consumes usage and payment events (and key changes, for its principal cache) and
 * listens for credits committed elsewhere.
 */
export async function startBilling(deps: BillingDeps, options: ListenOptions): Promise<RunningBilling> {
  const context = billingContext(deps);
  const readiness = billingReadiness(deps);
  return startControlPlane(
    {
      name: "billing",
      logger: deps.logger,
      readiness,
      // The servers stop taking work while the consumers finish (an in-flight event commits before its
      // offset does); the ledger listener stops last.
      work: async (stops) => {
        const { database, store, logger } = deps;
        stops.afterServers(await startLedgerListener({ pool: database.pool, store, logger }));
        stops.withServers(await subscribeUsage(deps.bus, deps.topics.usage, context));
        stops.withServers(await subscribePayments(deps.bus, deps.topics.payments, context));
        // The credits route authenticates management keys through a cache: a revoked or rotated-away
        // key must be forgotten here as on the edges, not when its cache entry lapses.
        stops.withServers(
          await deps.resolver.subscribeToKeyChanges(
            deps.bus,
            deps.topics.keyChanges,
            `billing-${randomBytes(6).toString("hex")}`,
          ),
        );
        if (deps.reconcile)
          stops.withServers(
            startReconciler(context, {
              ...deps.reconcile,
              read: (url, auth) => readEvmAuthorization(url, auth),
            }),
          );
      },
      http: () => createApp(deps, context, readiness),
      grpc: () => createGrpcServer(deps, context),
    },
    options,
  );
}
