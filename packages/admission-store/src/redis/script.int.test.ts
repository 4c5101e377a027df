import { describeWith, serviceUrl, uniqueName } from "@gw/testing";
import type { Cluster, Redis } from "ioredis";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { connectRedis } from "./connect.js";
import { LuaScript } from "./script.js";

// Counts KEYS[1] up by one, then fails with ARGV[1] when given: a rerun of a failed call would count twice.
const COUNT_THEN_FAIL = `
local n = redis.call('INCR', KEYS[1])
if ARGV[1] ~= '' then return redis.error_reply(ARGV[1]) end
return n`;

describeWith(["redis"], "LuaScript on a real Redis", () => {
  let redis: Redis;
  const root = `${uniqueName("test-script")}:`;
  let n = 0;
  const key = (): string => `${root}${++n}`;
  // A body unique to this run, so the server's script cache never holds it at the start of a test.
  const fresh = (): LuaScript => new LuaScript(`-- ${uniqueName("script")}\n${COUNT_THEN_FAIL}`);

  beforeAll(async () => {
    redis = await connectRedis(serviceUrl("redis"));
  });

  afterAll(async () => {
    const keys = await redis.keys(`${root}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it("sends the body once: a cached script runs by its SHA-1 alone", async () => {
    const script = fresh();
    const counter = key();
    const evalSpy = vi.spyOn(redis, "eval");
    try {
      expect(await script.run(redis, [counter], [""])).toBe(1);
      expect(evalSpy).toHaveBeenCalledTimes(1); // not cached yet: NOSCRIPT, then EVAL
      expect(await script.run(redis, [counter], [""])).toBe(2);
      expect(evalSpy).toHaveBeenCalledTimes(1);
    } finally {
      evalSpy.mockRestore();
    }
  });

  it("runs a script again with EVAL after the server lost it (SCRIPT FLUSH)", async () => {
    const script = fresh();
    const counter = key();
    await script.run(redis, [counter], [""]);
    await redis.script("FLUSH");
    expect(await script.run(redis, [counter], [""])).toBe(2);
  });

  it("throws a script's own error without running it again", async () => {
    const script = fresh();
    const counter = key();
    await script.run(redis, [counter], [""]); // cached
    await expect(script.run(redis, [counter], ["boom"])).rejects.toThrow("boom");
    expect(await redis.get(counter)).toBe("2");
  });

  it("throws a failing script's error on first use too, having run it once", async () => {
    const script = fresh();
    const counter = key();
    await expect(script.run(redis, [counter], ["boom"])).rejects.toThrow("boom");
    expect(await redis.get(counter)).toBe("1");
  });

  it("runs several calls in one pipeline, replies in call order, NOSCRIPT calls rerun with EVAL", async () => {
    const script = fresh();
    const [a, b, c] = [key(), key(), key()];
    const pipelineSpy = vi.spyOn(redis, "pipeline");
    try {
      const calls = [a, b, a, c].map((counter) => ({ keys: [counter], args: [""] }));
      expect(await script.runAll(redis, calls)).toEqual([1, 1, 2, 1]);
      expect(pipelineSpy).toHaveBeenCalledTimes(1);
      expect(await script.runAll(redis, calls)).toEqual([3, 2, 4, 2]);
    } finally {
      pipelineSpy.mockRestore();
    }
  });

  it("throws a call's own error from a pipeline, not rerunning it", async () => {
    const script = fresh();
    const [a, b] = [key(), key()];
    await script.run(redis, [a], [""]); // cached, so the pipeline's calls run by SHA
    const calls = [
      { keys: [a], args: [""] },
      { keys: [b], args: ["boom"] },
    ];
    await expect(script.runAll(redis, calls)).rejects.toThrow("boom");
    expect(await redis.mget(a, b)).toEqual(["2", "1"]);
  });

  it("runs a single call without a pipeline, and an empty batch to no replies", async () => {
    const script = fresh();
    const pipelineSpy = vi.spyOn(redis, "pipeline");
    try {
      expect(await script.runAll(redis, [{ keys: [key()], args: [""] }])).toEqual([1]);
      expect(pipelineSpy).not.toHaveBeenCalled();
      expect(await script.runAll(redis, [])).toEqual([]);
    } finally {
      pipelineSpy.mockRestore();
    }
  });

  it("sends a Cluster's calls one by one (each to its slot's node), never as one pipeline", async () => {
    const script = fresh();
    const [a, b] = [key(), key()];
    const pipeline = vi.fn(() => {
      throw new Error("a cluster pipeline spans slots");
    });
    // The real connection stands in for the cluster's nodes; only isCluster and pipeline differ.
    const cluster = new Proxy(redis, {
      get: (target, property) =>
        property === "isCluster" ? true : property === "pipeline" ? pipeline : Reflect.get(target, property),
    }) as unknown as Cluster;
    const calls = [a, b].map((counter) => ({ keys: [counter], args: [""] }));
    expect(await script.runAll(cluster, calls)).toEqual([1, 1]);
    expect(pipeline).not.toHaveBeenCalled();
  });
});
