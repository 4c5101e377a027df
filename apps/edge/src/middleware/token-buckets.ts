/** A bucket's refill rate (tokens per second) and size; a rate of 0 turns the buckets off. */
export interface BucketLimit {
  perSecond: number;
  burst: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * Token buckets by name (a client address, a key's hash), kept in this process only: no remote call.
 * A full bucket is as good as no bucket, so the map holds only names that spent recently and is
 * bounded: past `maxNames`, the least recently used names are dropped (they start again full).
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limit: BucketLimit,
    private readonly now: () => number,
    private readonly maxNames = 100_000,
  ) {}

  /** Takes one token; returns 0 when there was one, else the milliseconds until there will be. */
  take(name: string): number {
    if (this.limit.perSecond <= 0) return 0;
    const now = this.now();
    const bucket = this.buckets.get(name);
    const tokens = bucket
      ? Math.min(this.limit.burst, bucket.tokens + ((now - bucket.updatedAt) * this.limit.perSecond) / 1000)
      : this.limit.burst;
    if (bucket) this.buckets.delete(name);
    else if (this.buckets.size >= this.maxNames) this.evictOldest();
    // The same bucket object, updated (no allocation per request), re-inserted last, so the map's
    // order is least recently used first.
    const entry = bucket ?? { tokens, updatedAt: now };
    entry.tokens = tokens >= 1 ? tokens - 1 : tokens;
    entry.updatedAt = now;
    this.buckets.set(name, entry);
    return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * 1000) / this.limit.perSecond);
  }

  get size(): number {
    return this.buckets.size;
  }

  private evictOldest(): void {
    const oldest = this.buckets.keys().next();
    if (!oldest.done) this.buckets.delete(oldest.value);
  }
}
