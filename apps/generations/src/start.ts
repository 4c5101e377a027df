import { randomBytes } from "node:crypto";
import { listen, type Readiness } from "@gw/http";
import { bindGrpcServer, shutdownGrpcServer } from "@gw/rpc";
import { createApp } from "./app.js";
import { consumeUsage } from "./consumers/usage.js";
import type { GenerationsDeps } from "./deps.js";
import { createGrpcServer } from "./grpc.js";
import { HealthFigures } from "./health/aggregator.js";
import { startHealthAggregator } from "./health/start.js";
import type { HealthTables } from "./health/tables.js";
import { DEFAULT_RETENTION, startRetention } from "./retention/sweeper.js";
import { generationsReadiness } from "./routes/health.js";

export interface ListenOptions {
  host: string;
  /** 0 picks a free port. */
  httpPort: number;
  grpcPort: number;
  /** How long a stop waits for requests under way before cutting them (SHUTDOWN_DEADLINE_MS). */
  shutdownDeadlineMs?: number;
}

export interface RunningGenerations {
  httpUrl: string;
  grpcAddress: string;
  readiness: Readiness;
  /**
   * Readiness goes 503 first; consumers finish and commit, the retention job stops, servers close
   * (requests under way get until the shutdown deadline); the deps stay open.
   */
  stop(): Promise<void>;
}

/**
 * Serves REST and gRPC, consumes usage events (the records, and with the catalogue's endpoints the
 * endpoint health figures), invalidates cached principals, sweeps expired records.
 */
export async function startGenerations(
  deps: GenerationsDeps,
  options: ListenOptions,
): Promise<RunningGenerations> {
  const db = deps.database.db;
  const usage = await consumeUsage(deps.bus, { topic: deps.topics.usage, db, logger: deps.logger });
  const figures = new HealthFigures(db.withTables<HealthTables>(), { logger: deps.logger });
  const health = deps.knownEndpoints
    ? await startHealthAggregator({
        bus: deps.bus,
        topic: deps.topics.usage,
        groupId: deps.healthGroupId,
        db: db.withTables<HealthTables>(),
        figures,
        endpoints: deps.knownEndpoints,
      })
    : undefined;
  const keyChanges = await deps.resolver.subscribeToKeyChanges(
    deps.bus,
    deps.topics.keyChanges,
    `generations-${randomBytes(6).toString("hex")}`,
  );
  const retention = startRetention(db, deps.retention ?? DEFAULT_RETENTION, deps.logger);
  const readiness = generationsReadiness(deps);
  const http = await listen(createApp(deps, readiness), options.host, options.httpPort);
  const grpcServer = createGrpcServer(deps, figures);
  let grpcPort: number;
  try {
    grpcPort = await bindGrpcServer(grpcServer, options.host, options.grpcPort);
  } catch (error) {
    await Promise.all([http.close(), usage.stop(), health?.stop(), keyChanges.stop(), retention.stop()]);
    throw error;
  }
  const grpcAddress = `${loopbackFor(options.host)}:${grpcPort}`;
  deps.logger.info({ httpUrl: http.url, grpcAddress }, "generations app listening");
  return {
    httpUrl: http.url,
    grpcAddress,
    readiness,
    stop: async () => {
      readiness.drain();
      const deadlineMs = options.shutdownDeadlineMs;
      await Promise.all([usage.stop(), health?.stop(), keyChanges.stop(), retention.stop()]);
      await Promise.all([http.close(deadlineMs), shutdownGrpcServer(grpcServer, deadlineMs)]);
    },
  };
}

function loopbackFor(host: string): string {
  return host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
}
