import { hostname } from "node:os";
import { PrincipalResolver, walletTokensFromEnv } from "@gw/auth";
import { ConfigError, topicsFrom } from "@gw/config";
import { connectDatabase, migrateToLatest } from "@gw/db";
import { KafkaEventBus } from "@gw/kafka";
import { createLogger, runMain, stopOnSignals } from "@gw/logger";
import { startAppMetrics } from "@gw/metrics";
import { clientOptions, serviceAuthFromConfig } from "@gw/rpc";
import { startTracingFromEnv } from "@gw/telemetry";
import { loadGenerationsConfig } from "./config.js";
import { migrations, SCHEMA } from "./db/index.js";
import type { GenerationsTables } from "./db/schema.js";
import { connectCatalogEndpoints } from "./health/known-endpoints.js";
import { startGenerations } from "./start.js";

/** Production entry: Postgres and Kafka are required; the embedded default is apps/standalone. */
async function main(): Promise<void> {
  const config = loadGenerationsConfig();
  const logger = createLogger("generations", config.LOG_LEVEL);
  // Off unless OTEL_TRACES_EXPORTER=otlp: then spans go to the OTLP endpoint (docs/operations.md, Tracing).
  const tracing = startTracingFromEnv(process.env, "gw-generations");
  if (!config.DATABASE_URL) throw new ConfigError(["DATABASE_URL: required by the generations app"]);
  if (!config.KAFKA_BROKERS) {
    throw new ConfigError(["KAFKA_BROKERS: required by the generations app in production"]);
  }
  const serviceAuth = serviceAuthFromConfig("generations", config);
  const database = connectDatabase<GenerationsTables>({ url: config.DATABASE_URL, schema: SCHEMA });
  await migrateToLatest(database.db, SCHEMA, migrations);
  const bus = new KafkaEventBus({
    brokers: config.KAFKA_BROKERS,
    clientId: `generations-${hostname()}`,
    logger,
  });
  const keys = PrincipalResolver.connect(
    config.KEYS_GRPC_ADDRESS,
    // Wallet JWTs are verified here as on the edge (WALLET_JWT_SECRET; required in production).
    { walletTokens: walletTokensFromEnv(process.env) },
    clientOptions(serviceAuth.issuer, "keys"),
  );
  // The catalogue's endpoints, for the health aggregator (attempts at anything else are not kept).
  const catalog = connectCatalogEndpoints(config.KEYS_GRPC_ADDRESS, { issuer: serviceAuth.issuer, logger });
  const running = await startGenerations(
    {
      database,
      bus,
      topics: topicsFrom(config),
      logger,
      resolver: keys.resolver,
      knownEndpoints: catalog.endpoints,
      retention: {
        retentionDays: config.GENERATION_RETENTION_DAYS,
        intervalMs: config.GENERATION_RETENTION_INTERVAL_MS,
        batchSize: config.GENERATION_RETENTION_BATCH_SIZE,
      },
      serviceAuth,
      bodyTimeoutMs: config.BODY_TIMEOUT_MS,
    },
    {
      host: config.HOST,
      httpPort: config.HTTP_PORT,
      grpcPort: config.GRPC_PORT,
      shutdownDeadlineMs: config.SHUTDOWN_DEADLINE_MS,
    },
  );
  const metrics = await startAppMetrics("generations", {
    host: config.HOST,
    port: config.METRICS_PORT,
    httpUrl: running.httpUrl,
    logger,
  });
  stopOnSignals(logger, async () => {
    // Consumers finish and commit first, then the bus and the pool they used can close.
    await running.stop();
    keys.close();
    catalog.close();
    await bus.close();
    await database.close();
    await metrics.stop();
    await tracing.shutdown();
  });
}

runMain(main);
