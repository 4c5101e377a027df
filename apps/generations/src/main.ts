import { PrincipalResolver } from "@gw/auth";
import { topicsFrom } from "@gw/config";
import { connectDatabase, migrateToLatest } from "@gw/db";
import { type EventBus, InProcessEventBus } from "@gw/events";
import { createLogger, type Logger } from "@gw/logger";
import { type GenerationsConfig, loadGenerationsConfig } from "./config.js";
import { migrations, SCHEMA } from "./db/index.js";
import type { GenerationsTables } from "./db/schema.js";
import { startGenerations } from "./start.js";

// TODO(@gw/kafka): `import { KafkaEventBus } from "@gw/kafka";` once that package is built, and
// construct it in connectBus below. Until then KAFKA_BROKERS is refused rather than silently ignored.
function connectBus(config: GenerationsConfig, logger: Logger): EventBus {
  if (config.KAFKA_BROKERS) throw new Error("KAFKA_BROKERS is set but the Kafka event bus is not wired yet");
  logger.warn(
    "KAFKA_BROKERS is not set: only usage events from this process are recorded (development only)",
  );
  return new InProcessEventBus();
}

async function main(): Promise<void> {
  const config = loadGenerationsConfig();
  const logger = createLogger("generations", config.LOG_LEVEL);
  if (!config.DATABASE_URL) throw new Error("DATABASE_URL is required");
  const database = connectDatabase<GenerationsTables>({ url: config.DATABASE_URL, schema: SCHEMA });
  await migrateToLatest(database.db, SCHEMA, migrations);
  const bus = connectBus(config, logger);
  const keys = PrincipalResolver.connect(config.KEYS_GRPC_ADDRESS);
  const running = await startGenerations(
    {
      database,
      bus,
      topics: topicsFrom(config),
      logger,
      resolver: keys.resolver,
      retention: {
        retentionDays: config.GENERATION_RETENTION_DAYS,
        intervalMs: config.GENERATION_RETENTION_INTERVAL_MS,
        batchSize: config.GENERATION_RETENTION_BATCH_SIZE,
      },
    },
    { host: config.HOST, httpPort: config.HTTP_PORT, grpcPort: config.GRPC_PORT },
  );
  const shutdown = async (signal: string): Promise<void> => {
    logger.info({ signal }, "shutting down");
    await running.stop();
    keys.close();
    await bus.close();
    await database.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
