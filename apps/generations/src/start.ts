import { randomBytes } from "node:crypto";
import { type ListenOptions, type RunningControlPlane, type Stoppable, startControlPlane } from "@gw/service";
import { createApp } from "./app.js";
import { consumeUsage } from "./consumers/usage.js";
import type { GenerationsDeps } from "./deps.js";
import { createGrpcServer } from "./grpc.js";
import { HealthFigures } from "./health/aggregator.js";
import { startHealthAggregator } from "./health/start.js";
import type { HealthTables } from "./health/tables.js";
import { DEFAULT_RETENTION, startRetention } from "./retention/sweeper.js";
import { generationsReadiness } from "./routes/health.js";
import { subscribeWithRetry } from "./subscriptions.js";

export type { ListenOptions };
export type RunningGenerations = RunningControlPlane;

/**
 * Serves REST and gRPC, consumes usage events once (the records with their activity rollup and, with the
 * catalogue's endpoints, the endpoint health samples), invalidates cached principals, sweeps expired
 * records. A broker not ready at start is retried (subscriptions.ts), not a reason to exit.
 */
export async function startGenerations(
  deps: GenerationsDeps,
  options: ListenOptions,
): Promise<RunningGenerations> {
  const readiness = generationsReadiness(deps);
  const db = deps.database.db;
  const figures = new HealthFigures(db.withTables<HealthTables>(), { logger: deps.logger });
  return startControlPlane(
    {
      name: "generations",
      logger: deps.logger,
      readiness,
      // Consumers finish and commit, and the retention job stops, before the servers close.
      work: async (stops) => {
        const endpoints = deps.knownEndpoints;
        // The figures and the endpoint set first: the consumer's first batch finds the set if keys answered.
        if (endpoints) stops.beforeServers(await startHealthAggregator({ figures, endpoints }));
        const consumers = await subscribeWithRetry((held) => subscribeConsumers(deps, held), {
          logger: deps.logger,
        });
        readiness.add("consumers", () => consumers.check());
        stops.beforeServers(consumers);
        stops.beforeServers(startRetention(db, deps.retention ?? DEFAULT_RETENTION, deps.logger));
      },
      http: () => createApp(deps, readiness),
      grpc: () => createGrpcServer(deps, figures),
    },
    options,
  );
}

/** Every consumer of the app, each pushed into `held` once it runs (a failed attempt stops them). */
async function subscribeConsumers(deps: GenerationsDeps, held: Stoppable[]): Promise<void> {
  const endpoints = deps.knownEndpoints;
  held.push(
    await consumeUsage(deps.bus, {
      topic: deps.topics.usage,
      groupId: deps.usageGroupId,
      pool: deps.database.pool,
      logger: deps.logger,
      knownEndpoints: endpoints && (() => endpoints.current()),
    }),
  );
  held.push(
    await deps.resolver.subscribeToKeyChanges(
      deps.bus,
      deps.topics.keyChanges,
      `generations-${randomBytes(6).toString("hex")}`,
    ),
  );
}
