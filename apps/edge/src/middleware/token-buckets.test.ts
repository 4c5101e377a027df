import { describe, expect, it } from "vitest";
import { TokenBuckets } from "./token-buckets.js";

function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("TokenBuckets", () => {
  it("lets a burst through, then says how long until the next token", () => {
    const time = clock();
    const buckets = new TokenBuckets({ perSecond: 10, burst: 3 }, time.now);
    expect([buckets.take("a"), buckets.take("a"), buckets.take("a")]).toEqual([0, 0, 0]);
    expect(buckets.take("a")).toBe(100);
    time.advance(40);
    expect(buckets.take("a")).toBe(60);
  });

  it("lifts by itself as the bucket refills, never past its size", () => {
    const time = clock();
    const buckets = new TokenBuckets({ perSecond: 10, burst: 2 }, time.now);
    buckets.take("a");
    buckets.take("a");
    expect(buckets.take("a")).toBeGreaterThan(0);
    time.advance(100);
    expect(buckets.take("a")).toBe(0);
    time.advance(60_000);
    expect([buckets.take("a"), buckets.take("a"), buckets.take("a")]).toEqual([0, 0, 100]);
  });

  it("keeps each name's bucket apart", () => {
    const buckets = new TokenBuckets({ perSecond: 1, burst: 1 }, clock().now);
    expect(buckets.take("a")).toBe(0);
    expect(buckets.take("a")).toBeGreaterThan(0);
    expect(buckets.take("b")).toBe(0);
  });

  it("is off at a rate of 0", () => {
    const buckets = new TokenBuckets({ perSecond: 0, burst: 1 }, clock().now);
    for (let index = 0; index < 100; index++) expect(buckets.take("a")).toBe(0);
    expect(buckets.size).toBe(0);
  });

  it("holds at most maxNames buckets, dropping the least recently used", () => {
    const buckets = new TokenBuckets({ perSecond: 1, burst: 1 }, clock().now, 2);
    buckets.take("a");
    buckets.take("b");
    buckets.take("a");
    buckets.take("c");
    expect(buckets.size).toBe(2);
    // "b" was the least recently used: it was dropped and starts again full; "a" is still empty.
    expect(buckets.take("a")).toBeGreaterThan(0);
    expect(buckets.take("b")).toBe(0);
  });
});
