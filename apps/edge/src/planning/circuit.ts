export interface CircuitOptions {
  /** Consecutive provider failures that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit keeps the endpoint last before one probe may go through. */
  openMs: number;
}

export const DEFAULT_CIRCUIT: CircuitOptions = { failureThreshold: 3, openMs: 15_000 };

export type CircuitState = "closed" | "open" | "half-open";

interface Entry {
  failures: number;
  openedAt: number | undefined;
  /** When the half-open circuit let its one probe through; undefined = the probe is still to be sent. */
  probeAt: number | undefined;
}

/**
 * One circuit per endpoint, kept by this edge alone: it reacts within a request or two, before the
 * measured figures (seconds) do. After `failureThreshold` consecutive provider failures the circuit
 * opens and the endpoint goes last; after `openMs` it is half-open and exactly one request may try it
 * at its normal rank (the probe); the probe's success closes it, its failure opens it again. A probe
 * that never reports (its request was served elsewhere first) frees the slot after another `openMs`.
 */
export class CircuitBreakers {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly options: CircuitOptions = DEFAULT_CIRCUIT,
    private readonly now: () => number = Date.now,
  ) {}

  recordSuccess(key: string): void {
    this.entries.delete(key);
  }

  recordFailure(key: string): void {
    const entry = this.entries.get(key) ?? { failures: 0, openedAt: undefined, probeAt: undefined };
    entry.failures += 1;
    const probing = entry.openedAt !== undefined && entry.probeAt !== undefined;
    if (probing || entry.failures >= this.options.failureThreshold) {
      entry.openedAt = this.now();
      entry.probeAt = undefined;
    }
    this.entries.set(key, entry);
  }

  state(key: string): CircuitState {
    const entry = this.entries.get(key);
    if (entry?.openedAt === undefined) return "closed";
    return this.now() - entry.openedAt < this.options.openMs ? "open" : "half-open";
  }

  /**
   * Whether a request may try the endpoint at its normal rank: always when closed, never while open,
   * and when half-open only the one request that takes the probe (this call takes it).
   */
  admit(key: string): boolean {
    const entry = this.entries.get(key);
    if (entry?.openedAt === undefined) return true;
    const now = this.now();
    if (now - entry.openedAt < this.options.openMs) return false;
    if (entry.probeAt !== undefined && now - entry.probeAt < this.options.openMs) return false;
    entry.probeAt = now;
    return true;
  }
}
