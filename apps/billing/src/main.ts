import { PrincipalResolver, walletTokensFromEnv } from "@gw/auth";
import { topicsFrom } from "@gw/config";
import { connectDatabase, migrateToLatest } from "@gw/db";
import type { EventBus } from "@gw/events";
import { connectRedis, RedisAdmissionStore } from "@gw/hotstore";
import { KafkaEventBus } from "@gw/kafka";
import { createLogger, type Logger, runMain, stopOnSignals } from "@gw/logger";
import { startAppMetrics } from "@gw/metrics";
import { serviceAuthFromConfig } from "@gw/rpc";
import { startTracingFromEnv } from "@gw/telemetry";
import { type BillingConfig, loadBillingConfig } from "./config.js";
import { migrations, SCHEMA } from "./db/index.js";
import type { BillingTables } from "./db/schema.js";
import { redisCheck } from "./routes/health.js";
import { startBilling } from "./start.js";

/**
 * Billing consumes the usage topic, so production needs the broker; the in-process bus would receive
 * nothing here (the embedded default, apps/standalone, shares one bus with the edge instead).
 */
function connectBus(config: BillingConfig, logger: Logger): EventBus {
  if (!config.KAFKA_BROKERS || config.KAFKA_BROKERS.length === 0) {
    throw new Error("KAFKA_BROKERS is required (usage events arrive over Kafka)");
  }
  return new KafkaEventBus({ brokers: config.KAFKA_BROKERS, clientId: "billing", logger });
}

/** Production entry: Postgres, Redis and Kafka are required; the embedded default is apps/standalone. */
async function main(): Promise<void> {
  const config = loadBillingConfig();
  const logger = createLogger("billing", config.LOG_LEVEL);
  // Off unless OTEL_TRACES_EXPORTER=otlp: then spans go to the OTLP endpoint (docs/operations.md, Tracing).
  const tracing = startTracingFromEnv(process.env, "gw-billing");
  if (!config.DATABASE_URL) throw new Error("DATABASE_URL is required");
  if (!config.REDIS_URL)
    throw new Error("REDIS_URL is required (the in-memory store is for the embedded default)");
  const serviceAuth = serviceAuthFromConfig("billing", config);
  const database = connectDatabase<BillingTables>({ url: config.DATABASE_URL, schema: SCHEMA });
  await migrateToLatest(database.db, SCHEMA, migrations);
  const redis = await connectRedis(config.REDIS_URL);
  const store = new RedisAdmissionStore(redis, { keyPrefix: config.REDIS_KEY_PREFIX });
  const bus = connectBus(config, logger);
  const keys = PrincipalResolver.connect(config.KEYS_GRPC_ADDRESS, {
    // Wallet JWTs are verified here as on the edge (WALLET_JWT_SECRET; required in production).
    walletTokens: walletTokensFromEnv(process.env),
    issuer: serviceAuth.issuer,
  });
  const running = await startBilling(
    {
      database,
      bus,
      topics: topicsFrom(config),
      logger,
      store,
      resolver: keys.resolver,
      admission: {
        holdTtlMs: config.HOLD_TTL_MS,
        failOpen: config.ADMISSION_FAIL_OPEN,
        paidRequestsPerMinute: config.PAID_REQUESTS_PER_MINUTE,
      },
      leases: { ttlMs: config.LEASE_TTL_MS ?? config.HOLD_TTL_MS, useMs: config.LEASE_USE_MS },
      serviceAuth,
      bodyTimeoutMs: config.BODY_TIMEOUT_MS,
      hotStoreCheck: redisCheck(redis),
    },
    {
      host: config.HOST,
      httpPort: config.HTTP_PORT,
      grpcPort: config.GRPC_PORT,
      shutdownDeadlineMs: config.SHUTDOWN_DEADLINE_MS,
    },
  );
  const metrics = await startAppMetrics("billing", {
    host: config.HOST,
    port: config.METRICS_PORT,
    httpUrl: running.httpUrl,
    logger,
  });
  stopOnSignals(logger, async () => {
    await running.stop();
    keys.close();
    await bus.close();
    redis.disconnect();
    await database.close();
    await metrics.stop();
    await tracing.shutdown();
  });
}

runMain(main);
