import { join } from "node:path";
import {
  type AdmissionStore,
  connectRedis,
  MemoryAdmissionStore,
  RedisAdmissionStore,
} from "@gw/admission-store";
import { connectDatabase, migrateToLatest } from "@gw/db";
import type { EventBus } from "@gw/events";
import { KafkaEventBus } from "@gw/kafka";
import type { Logger } from "@gw/logger";
import {
  holdOutboxWriterLock,
  OUTBOX_SCHEMA,
  OutboxEventBus,
  type OutboxTables,
  outboxMigrations,
} from "@gw/outbox";

export interface Owned<T> {
  value: T;
  kind: string;
  close(): Promise<void>;
}

/**
 * Kafka when KAFKA_BROKERS is set; otherwise the PostgreSQL outbox in the gateway's own database
 * (the embedded default), so usage published and not yet applied survives a crash of the process.
 */
export async function eventBus(
  brokers: string[] | undefined,
  dataDirectory: string,
  logger: Logger,
  databaseUrl: string,
  /** OUTBOX_STALE_GROUP_AFTER_S in ms: when a consumer group nobody uses stops holding back pruning. */
  staleGroupMs?: number,
): Promise<Owned<EventBus>> {
  if (brokers && brokers.length > 0) {
    const bus = new KafkaEventBus({
      brokers,
      clientId: "model-gateway-standalone",
      logger,
      // The journal: the edge's usage events are on disk before their responses complete.
      spool: { directory: join(dataDirectory, "spool"), journal: true },
    });
    return { value: bus, kind: `kafka (${brokers.join(",")})`, close: () => bus.close() };
  }
  const database = connectDatabase<OutboxTables>({
    url: databaseUrl,
    schema: OUTBOX_SCHEMA,
    // One connection of these holds the single-writer lock for the bus's lifetime.
    maxConnections: 5,
  });
  let release: () => Promise<void>;
  try {
    release = await holdOutboxWriterLock(database.pool, OUTBOX_SCHEMA, (error) =>
      logger.warn({ err: error }, "the outbox's writer-lock session ended"),
    );
    await migrateToLatest(database.db, OUTBOX_SCHEMA, outboxMigrations);
  } catch (error) {
    await database.close();
    throw error;
  }
  const bus = new OutboxEventBus({
    db: database.db,
    logger: logger.child({ component: "outbox" }),
    staleGroupMs,
  });
  return {
    value: bus,
    kind: "PostgreSQL outbox (in-process delivery)",
    close: async () => {
      await bus.close();
      await release();
      await database.close();
    },
  };
}

/** Redis when REDIS_URL is set; otherwise billing's in-process admission store. */
export async function admissionStore(redisUrl: string | undefined): Promise<Owned<AdmissionStore>> {
  if (redisUrl) {
    const redis = await connectRedis(redisUrl);
    return {
      value: new RedisAdmissionStore(redis),
      kind: `redis (${new URL(redisUrl).host})`,
      close: async () => {
        redis.disconnect();
      },
    };
  }
  return { value: new MemoryAdmissionStore(), kind: "in-process", close: async () => {} };
}
