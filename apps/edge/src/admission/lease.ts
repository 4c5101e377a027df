/**
 * One budget lease as the edge keeps it: billing holds `grantedPico` of the account's (and key's)
 * budget under the lease id, and the edge admits requests against what is left of it, locally.
 *
 * Each admitted request reserves its worst-case cost; when it finishes, the reservation is replaced by
 * its actual cost. `remainingPico` is therefore what no running or finished request can claim, and
 * `spentPico` what finished requests cost (reported to billing when the lease is returned).
 *
 * With the account's paid-model request ceiling on, billing also counted `grantedRequests` requests
 * for the lease when it granted it: no more than that many start under it (`requestsLeft`).
 */
export class Lease {
  remainingPico: bigint;
  spentPico = 0n;
  inFlight = 0;
  /** No new request may start under a retired lease; it is returned once its requests finish. */
  retired = false;
  lastUsedAt: number;
  /** Requests that may still start under the lease; undefined = no count bound (no ceiling). */
  requestsLeft: number | undefined;

  constructor(
    readonly id: string,
    readonly accountId: string,
    readonly grantedPico: bigint,
    readonly grantedAt: number,
    /** Billing's bound: no request starts under the lease after this. */
    readonly useUntil: number,
    /** The requests billing counted for the lease against the request ceiling; 0 = no ceiling. */
    grantedRequests = 0,
  ) {
    this.remainingPico = grantedPico;
    this.lastUsedAt = grantedAt;
    this.requestsLeft = grantedRequests > 0 ? grantedRequests : undefined;
  }

  canCover(worstCasePico: bigint, now: number): boolean {
    const counted = this.requestsLeft === undefined || this.requestsLeft > 0;
    return !this.retired && counted && now < this.useUntil && this.remainingPico >= worstCasePico;
  }

  reserve(worstCasePico: bigint, now: number): void {
    this.remainingPico -= worstCasePico;
    if (this.requestsLeft !== undefined) this.requestsLeft -= 1;
    this.inFlight += 1;
    this.lastUsedAt = now;
  }

  /**
   * A request ended: its reservation gives way to what it cost. A cost above the reservation (the
   * estimate fell short) leaves `remainingPico` lower, possibly negative, which stops further use.
   */
  finish(reservedPico: bigint, actualPico: bigint): void {
    this.inFlight -= 1;
    this.remainingPico += reservedPico - actualPico;
    this.spentPico += actualPico;
  }

  get idle(): boolean {
    return this.inFlight === 0;
  }
}

/** A request admitted under a lease; admission finishes it with the request's actual cost (Admission.finish). */
export interface LeaseHold {
  lease: Lease;
  reservedPico: bigint;
}
