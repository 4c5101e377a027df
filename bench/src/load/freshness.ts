import { performance } from "node:perf_hooks";
import { Samples } from "./stats.js";

/** Looks up which of the ids are readable now (one query), e.g. generation records or ledger rows. */
export type Lookup = (ids: string[]) => Promise<Set<string>>;

export interface Freshness {
  /** Sampled answers, and those whose row never became readable before the probe gave up. */
  samples: number;
  unresolved: number;
  p50: number;
  p99: number;
  /** Lookups sent (each one a PostgreSQL transaction: subtracted from the row's commits). */
  queries: number;
}

/**
 * Time from an answer to its row being readable. Every `sampleEvery`-th answer's generation id is kept
 * with the time its body ended; every `pollMs` one lookup asks for all pending ids, and each found id's
 * freshness is the time that lookup was SENT minus the answer's time (the row was readable by then: the
 * figure is an upper bound by at most one poll interval plus the lookup's own time).
 */
export class FreshnessProbe {
  private readonly pending = new Map<string, number>();
  private readonly samples = new Samples();
  private seen = 0;
  private sampled = 0;
  private queries = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly lookup: Lookup,
    private readonly sampleEvery: number,
    private readonly pollMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  answered(id: string, at: number): void {
    if (this.seen++ % this.sampleEvery !== 0) return;
    this.sampled++;
    this.pending.set(id, at);
  }

  start(): void {
    this.timer = setInterval(() => void this.poll(), this.pollMs);
  }

  /** One lookup of every pending id; those found are resolved with the lookup's send time. */
  async poll(): Promise<void> {
    if (this.polling || this.pending.size === 0) return;
    this.polling = true;
    const sentAt = this.now();
    try {
      this.queries++;
      const found = await this.lookup([...this.pending.keys()]);
      this.resolve(found, sentAt);
    } finally {
      this.polling = false;
    }
  }

  resolve(found: Set<string>, readableAt: number): void {
    for (const id of found) {
      const answeredAt = this.pending.get(id);
      if (answeredAt === undefined) continue;
      this.samples.add(readableAt - answeredAt);
      this.pending.delete(id);
    }
  }

  /** Polls until every sampled row is readable or `timeoutMs` passed, then stops. */
  async finish(timeoutMs: number): Promise<Freshness> {
    const deadline = this.now() + timeoutMs;
    while (this.pending.size > 0 && this.now() < deadline)
      await new Promise((r) => setTimeout(r, this.pollMs));
    clearInterval(this.timer);
    return this.result();
  }

  result(): Freshness {
    return {
      samples: this.sampled,
      unresolved: this.pending.size,
      p50: this.samples.percentile(50),
      p99: this.samples.percentile(99),
      queries: this.queries,
    };
  }
}
