import { createHash } from "node:crypto";
import type { Cluster, Redis } from "ioredis";

export type RedisClient = Redis | Cluster;

/**
 * A Lua script run with EVALSHA: one round trip, the body is sent only when the server does not
 * have it cached yet (first use, restart, failover), then EVAL caches it again.
 */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash("sha1").update(source).digest("hex");
  }

  async run(redis: RedisClient, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("NOSCRIPT");
}
