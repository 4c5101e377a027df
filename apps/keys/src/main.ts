import { hostname } from "node:os";
import { walletTokensFromEnv } from "@gw/auth";
import { ConfigError, topicsFrom } from "@gw/config";
import { connectDatabase, migrateToLatest } from "@gw/db";
import { KafkaEventBus } from "@gw/kafka";
import { createLogger, runMain, stopOnSignals } from "@gw/logger";
import { startAppMetrics } from "@gw/metrics";
import { serviceAuthFromConfig } from "@gw/rpc";
import { startTracingFromEnv } from "@gw/telemetry";
import { connectEndpointHealth } from "./catalog/endpoint-health.js";
import { loadKeysConfig } from "./config.js";
import { migrations, SCHEMA } from "./db/index.js";
import type { KeysTables } from "./db/schema.js";
import { connectBillingUsage } from "./identity/usage/billing.js";
import { startKeys } from "./start.js";

/** Production entry: Postgres and Kafka are required; the embedded default is apps/standalone. */
async function main(): Promise<void> {
  const config = loadKeysConfig();
  const logger = createLogger("keys", config.LOG_LEVEL);
  // Off unless OTEL_TRACES_EXPORTER=otlp: then spans go to the OTLP endpoint (docs/operations.md, Tracing).
  const tracing = startTracingFromEnv(process.env, "gw-keys");
  if (!config.DATABASE_URL) throw new ConfigError(["DATABASE_URL: required by the keys app"]);
  if (!config.KAFKA_BROKERS) throw new ConfigError(["KAFKA_BROKERS: required by the keys app in production"]);
  const serviceAuth = serviceAuthFromConfig("keys", config);
  const database = connectDatabase<KeysTables>({ url: config.DATABASE_URL, schema: SCHEMA });
  await migrateToLatest(database.db, SCHEMA, migrations);
  // Key-change events keep edges from trusting a revoked key: a broker outage spools them to disk.
  const bus = new KafkaEventBus({
    brokers: config.KAFKA_BROKERS,
    clientId: `keys-${hostname()}`,
    logger,
    spool: { directory: config.EVENT_SPOOL_DIR },
  });
  const billing = connectBillingUsage(config.BILLING_GRPC_ADDRESS, { issuer: serviceAuth.issuer });
  const health = connectEndpointHealth(config.GENERATIONS_GRPC_ADDRESS, { issuer: serviceAuth.issuer });
  const running = await startKeys(
    {
      database,
      bus,
      topics: topicsFrom(config),
      logger,
      billing: billing.usage,
      health: health.source,
      byokMasterKey: config.BYOK_MASTER_KEY,
      serviceAuth,
      bodyTimeoutMs: config.BODY_TIMEOUT_MS,
      wallet: walletSettings(config.PUBLIC_BASE_URL),
    },
    {
      host: config.HOST,
      httpPort: config.HTTP_PORT,
      grpcPort: config.GRPC_PORT,
      shutdownDeadlineMs: config.SHUTDOWN_DEADLINE_MS,
    },
  );
  const metrics = await startAppMetrics("keys", {
    host: config.HOST,
    port: config.METRICS_PORT,
    httpUrl: running.httpUrl,
    logger,
  });
  stopOnSignals(logger, async () => {
    await running.stop();
    billing.close();
    health.close();
    // close() waits a bounded time for the backlog and spools the rest.
    await bus.close();
    await database.close();
    await metrics.stop();
    await tracing.shutdown();
  });
}

/** Wallet sign-in needs both the JWT secret (required in production) and the public URL. */
function walletSettings(publicBaseUrl: string | undefined) {
  const tokens = walletTokensFromEnv(process.env);
  if (tokens && !publicBaseUrl)
    throw new ConfigError(["PUBLIC_BASE_URL: required with WALLET_JWT_SECRET (it is the sign-in domain)"]);
  return tokens && publicBaseUrl ? { tokens, publicBaseUrl } : undefined;
}

runMain(main);
