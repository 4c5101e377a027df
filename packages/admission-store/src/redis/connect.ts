import { Redis, type RedisOptions } from "ioredis";

/**
 * A Redis connection for the admission path. Admission must fail fast when Redis is gone (the edge
 * then answers 503, or admits without a hold when fail-open is configured), so commands are not
 * queued while disconnected and each one has a timeout well inside the edge's Admit deadline.
 */
export async function connectRedis(url: string, options: RedisOptions = {}): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1_000,
    connectTimeout: 5_000,
    ...options,
  });
  // Connection errors surface on the commands; without a listener ioredis would print each retry.
  redis.on("error", () => {});
  await redis.connect();
  return redis;
}
