import { join } from "node:path";
import { type EventBus, InProcessEventBus } from "@gw/events";
import { type AdmissionStore, connectRedis, MemoryAdmissionStore, RedisAdmissionStore } from "@gw/hotstore";
import { KafkaEventBus } from "@gw/kafka";
import type { Logger } from "@gw/logger";

export interface Owned<T> {
  value: T;
  kind: string;
  close(): Promise<void>;
}

/**
 * Kafka when KAFKA_BROKERS is set; otherwise the in-process bus (the embedded default: events live
 * only as long as the process, which is why it is for development).
 */
export function eventBus(
  brokers: string[] | undefined,
  dataDirectory: string,
  logger: Logger,
): Owned<EventBus> {
  if (brokers && brokers.length > 0) {
    const bus = new KafkaEventBus({
      brokers,
      clientId: "model-gateway-standalone",
      logger,
      spool: { directory: join(dataDirectory, "spool") },
    });
    return { value: bus, kind: `kafka (${brokers.join(",")})`, close: () => bus.close() };
  }
  const bus = new InProcessEventBus();
  return { value: bus, kind: "in-process", close: () => bus.close() };
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
