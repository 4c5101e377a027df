import { createHash } from "node:crypto";
import type { Cluster, Redis } from "ioredis";

export type RedisClient = Redis | Cluster;

/** One invocation of a script: its keys and arguments. */
export interface ScriptCall {
  keys: string[];
  args: string[];
}

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

  /**
   * Several calls in one round trip (a pipeline), replies in call order. A call refused with NOSCRIPT
   * did not run, so it is run again with EVAL; the calls must commute (the batch apply's touch
   * disjoint accounts), since such a rerun comes after the calls that followed it. A Redis Cluster
   * routes each call to its own slot's node: there they are sent concurrently instead.
   */
  async runAll(redis: RedisClient, calls: readonly ScriptCall[]): Promise<unknown[]> {
    const [only] = calls;
    if (calls.length === 1 && only) return [await this.run(redis, only.keys, only.args)];
    if (redis.isCluster) return Promise.all(calls.map((call) => this.run(redis, call.keys, call.args)));
    const pipeline = redis.pipeline();
    for (const { keys, args } of calls) pipeline.evalsha(this.sha, keys.length, ...keys, ...args);
    const replies = (await pipeline.exec()) ?? [];
    const results: unknown[] = [];
    for (const [index, { keys, args }] of calls.entries()) {
      const [error, reply] = replies[index] ?? [new Error("the pipeline returned no reply"), null];
      if (!error) results.push(reply);
      else if (isNoScript(error)) results.push(await redis.eval(this.source, keys.length, ...keys, ...args));
      else throw error;
    }
    return results;
  }
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("NOSCRIPT");
}
