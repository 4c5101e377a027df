/** Latency samples in milliseconds (sub-millisecond resolution), summarised once at the end. */
export class Samples {
  private values: number[] = [];

  add(ms: number): void {
    this.values.push(ms);
  }

  get count(): number {
    return this.values.length;
  }

  percentile(p: number): number {
    if (this.values.length === 0) return Number.NaN;
    const sorted = this.sorted();
    const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
    return sorted[index] ?? Number.NaN;
  }

  private cache: number[] | undefined;
  private sorted(): number[] {
    if (!this.cache || this.cache.length !== this.values.length) {
      this.cache = Float64Array.from(this.values).sort() as unknown as number[];
    }
    return this.cache;
  }
}

export interface LoadResult {
  requests: number;
  errors: number;
  /** Status or error text → count, for the first few kinds of failure. */
  failures: Record<string, number>;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  /** Streams only: time to the first body byte. */
  ttfbP50?: number;
  ttfbP99?: number;
}

export function summarise(
  latency: Samples,
  errors: number,
  failures: Record<string, number>,
  seconds: number,
  ttfb?: Samples,
): LoadResult {
  return {
    requests: latency.count,
    errors,
    failures,
    seconds,
    rps: latency.count / seconds,
    p50: latency.percentile(50),
    p99: latency.percentile(99),
    ...(ttfb && ttfb.count > 0 ? { ttfbP50: ttfb.percentile(50), ttfbP99: ttfb.percentile(99) } : {}),
  };
}
