import { hostname } from "node:os";
import { PrincipalResolver, walletTokensFromEnv } from "@gw/auth";
import { ConfigError, topicsFrom } from "@gw/config";
import { connectDatabase, type Migrations, migrateToLatest } from "@gw/db";
import { KafkaEventBus } from "@gw/kafka";
import { createLogger, stopOnSignals } from "@gw/logger";
import { startAppMetrics } from "@gw/metrics";
import { type ServiceAuth, serviceAuthFromConfig } from "@gw/rpc";
import { startTracingFromEnv } from "@gw/telemetry";
import type { ControlPlaneConfig } from "./config.js";
import type { ControlPlaneDeps } from "./deps.js";
import type { ControlPlaneName, ListenOptions, RunningControlPlane } from "./start.js";

/** A control-plane app's production process: its common connections made, waiting for the app to start. */
export interface ControlPlaneProcess<Tables> {
  /** The deps every app is given, connected (spread into the app's own deps). */
  deps: ControlPlaneDeps<Tables> & { serviceAuth: ServiceAuth };
  listen: ListenOptions;
  /** Closes one of the app's own connections on stop: after the app stopped, before the bus and the database. */
  onClose(close: () => unknown): void;
  /** A PrincipalResolver over KeyService (as this app), for an app that authenticates keys on its REST routes. */
  principals(keysAddress: string): PrincipalResolver;
  /** Serves /metrics (METRICS_PORT) and, on SIGTERM or SIGINT, stops the app and closes everything. */
  serve(running: RunningControlPlane): Promise<void>;
}

export interface ProcessOptions {
  /** The app's database schema and its migrations, run forward at start. */
  schema: string;
  migrations: Migrations;
  /** Where published events wait while the broker is unreachable; unset = no spool. */
  spoolDirectory?: string;
}

/**
 * The production entry's common part (the embedded default is apps/standalone): logger, tracing,
 * service auth, PostgreSQL migrated to the latest schema, and Kafka, all required.
 */
export async function openControlPlane<Tables>(
  name: ControlPlaneName,
  config: ControlPlaneConfig,
  options: ProcessOptions,
): Promise<ControlPlaneProcess<Tables>> {
  const logger = createLogger(name, config.LOG_LEVEL);
  // Off unless OTEL_TRACES_EXPORTER=otlp: then spans go to the OTLP endpoint (docs/operations.md, Tracing).
  const tracing = startTracingFromEnv(process.env, `gw-${name}`);
  const url = config.DATABASE_URL;
  const brokers = config.KAFKA_BROKERS ?? [];
  const issues: string[] = [];
  if (!url) issues.push(`DATABASE_URL: required by the ${name} app`);
  if (brokers.length === 0) issues.push(`KAFKA_BROKERS: required by the ${name} app in production`);
  if (!url || brokers.length === 0) throw new ConfigError(issues);
  const serviceAuth = serviceAuthFromConfig(name, config);
  const database = connectDatabase<Tables>({ url, schema: options.schema });
  await migrateToLatest(database.db, options.schema, options.migrations);
  const bus = new KafkaEventBus({
    brokers,
    clientId: `${name}-${hostname()}`,
    logger,
    ...(options.spoolDirectory === undefined ? {} : { spool: { directory: options.spoolDirectory } }),
  });
  const closers: Array<() => unknown> = [];
  return {
    deps: {
      database,
      bus,
      topics: topicsFrom(config),
      logger,
      serviceAuth,
      bodyTimeoutMs: config.BODY_TIMEOUT_MS,
    },
    listen: {
      host: config.HOST,
      httpPort: config.HTTP_PORT,
      grpcPort: config.GRPC_PORT,
      shutdownDeadlineMs: config.SHUTDOWN_DEADLINE_MS,
    },
    onClose: (close) => void closers.push(close),
    principals: (keysAddress) => {
      const keys = PrincipalResolver.connect(keysAddress, {
        // Wallet JWTs are verified here as on the edge (WALLET_JWT_SECRET; required in production).
        walletTokens: walletTokensFromEnv(process.env),
        issuer: serviceAuth.issuer,
      });
      closers.push(keys.close);
      return keys.resolver;
    },
    serve: async (running) => {
      const metrics = await startAppMetrics(name, {
        host: config.HOST,
        port: config.METRICS_PORT,
        httpUrl: running.httpUrl,
        logger,
      });
      stopOnSignals(logger, async () => {
        // The app's consumers finish and commit first, then what they used can close; the bus's
        // close() waits a bounded time for its backlog (and spools the rest when it has a spool).
        await running.stop();
        for (const close of closers) await close();
        await bus.close();
        await database.close();
        await metrics.stop();
        await tracing.shutdown();
      });
    },
  };
}
