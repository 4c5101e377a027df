import { topicsFrom } from "@gw/config";
import { connectDatabase, migrateToLatest } from "@gw/db";
import { type EventBus, InProcessEventBus } from "@gw/events";
import { createLogger, type Logger } from "@gw/logger";
import { type KeysConfig, loadKeysConfig } from "./config.js";
import { migrations, SCHEMA } from "./db/index.js";
import type { KeysTables } from "./db/schema.js";
import { startKeys } from "./start.js";
import { connectBillingUsage } from "./usage/billing.js";

// TODO(@gw/kafka): `import { KafkaEventBus } from "@gw/kafka";` once that package is built, and
// construct it in connectBus below. Until then KAFKA_BROKERS is refused rather than silently ignored.
function connectBus(config: KeysConfig, logger: Logger): EventBus {
  if (config.KAFKA_BROKERS) throw new Error("KAFKA_BROKERS is set but the Kafka event bus is not wired yet");
  logger.warn("KAFKA_BROKERS is not set: key-change events stay in this process (development only)");
  return new InProcessEventBus();
}

async function main(): Promise<void> {
  const config = loadKeysConfig();
  const logger = createLogger("keys", config.LOG_LEVEL);
  if (!config.DATABASE_URL) throw new Error("DATABASE_URL is required");
  const database = connectDatabase<KeysTables>({ url: config.DATABASE_URL, schema: SCHEMA });
  await migrateToLatest(database.db, SCHEMA, migrations);
  const bus = connectBus(config, logger);
  const billing = connectBillingUsage(config.BILLING_GRPC_ADDRESS);
  const running = await startKeys(
    { database, bus, topics: topicsFrom(config), logger, billing: billing.usage },
    { host: config.HOST, httpPort: config.HTTP_PORT, grpcPort: config.GRPC_PORT },
  );
  const shutdown = async (signal: string): Promise<void> => {
    logger.info({ signal }, "shutting down");
    await running.stop();
    billing.close();
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
