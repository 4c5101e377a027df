import { randomUUID } from "node:crypto";
import type { Logger } from "@gw/logger";
import { recordLeaseGrant, recordLeaseReturn } from "@gw/metrics";
import type { Principal } from "@gw/proto/keys/v1/keys";
import type { BillingClient } from "../clients/billing.js";
import { keyLimitOf } from "./admit.js";
import { Lease, type LeaseHold } from "./lease.js";

export interface LeaseSettings {
  /** Off: every request is admitted by its own `Admit` call. */
  enabled: boolean;
  /** A first lease asks for this many worst cases of the request that needed it. */
  initialMultiple: number;
  /**
   * The smallest lease worth having, in worst cases. Billing grants at most 1/8 of what is left, so
   * no lease is granted once fewer than 8 × this many worst cases remain: near a limit every request
   * is admitted exactly by its own `Admit`, and no edge strands budget in a lease another edge needs.
   */
  minMultiple: number;
  /**
   * A lease used up within `fastUseMs` doubles the next one's size, up to this many worst cases. The
   * requests already waiting for a lease are not a forecast: a lease is always asked big enough for
   * them, even beyond this (billing still grants at most 1/8 of what is left).
   */
  maxMultiple: number;
  fastUseMs: number;
  /** An active lease unused this long is returned, so its budget is free for other edges. */
  idleReturnMs: number;
  /** After billing declines a lease, the key is admitted request by request for this long. */
  declinedBackoffMs: number;
  /** How often leases past their use window or idle are retired. */
  sweepMs: number;
}

export const DEFAULT_LEASE_SETTINGS: LeaseSettings = {
  enabled: true,
  initialMultiple: 16,
  minMultiple: 8,
  maxMultiple: 1_024,
  fastUseMs: 2_000,
  idleReturnMs: 5_000,
  declinedBackoffMs: 1_000,
  sweepMs: 1_000,
};

/** Callers may wait on one acquisition at most this many times before falling back to `Admit`. */
const MAX_ACQUIRE_ROUNDS = 3;

interface KeyState {
  active: Lease | undefined;
  acquiring: Promise<Lease | undefined> | undefined;
  multiple: number;
  declinedUntil: number;
  /** Requests waiting for an acquisition on this key, and their worst cases: the next lease's floor. */
  waiting: number;
  waitingPico: bigint;
}

export interface LeaseBookDeps {
  billing: BillingClient;
  logger: Pick<Logger, "warn" | "debug">;
  now: () => number;
  settings?: Partial<LeaseSettings>;
}

/**
 * The edge's budget leases, one active lease per (account, key, key limit). A request whose worst
 * case fits the active lease is admitted without a remote call; otherwise one acquisition per key is
 * in flight and the requests that need it wait for it. When billing declines (the budget is too tight
 * to lease a slice of it) or cannot be reached, `reserve` answers undefined and the caller admits the
 * request on its own through `Admit`, which gives the exact answer near a limit.
 */
export class LeaseBook {
  private readonly settings: LeaseSettings;
  private readonly keys = new Map<string, KeyState>();
  /** Retired leases with requests still running; returned when the last one finishes. */
  private readonly draining = new Set<Lease>();
  private readonly returns = new Set<Promise<void>>();
  private readonly sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly deps: LeaseBookDeps) {
    this.settings = { ...DEFAULT_LEASE_SETTINGS, ...deps.settings };
    if (this.settings.enabled) {
      this.sweeper = setInterval(() => this.sweep(), this.settings.sweepMs);
      this.sweeper.unref();
    }
  }

  /**
   * Admits the request under a lease, or answers undefined: admit it with its own `Admit` call. A burst
   * (many streams opened at once on one key) waits for a lease sized for all of it rather than falling
   * back to one `Admit` per request: those remote calls arrive at billing together, and a loaded billing
   * answers them past their deadline, every one a 503 (fail-closed).
   */
  async reserve(principal: Principal, worstCasePico: bigint): Promise<LeaseHold | undefined> {
    if (!this.settings.enabled) return undefined;
    const key = leaseKey(principal);
    const state = this.stateFor(key);
    // The lease of the last acquisition waited for is tried too (round MAX_ACQUIRE_ROUNDS).
    for (let round = 0; ; round++) {
      const now = this.deps.now();
      const lease = state.active;
      if (lease?.canCover(worstCasePico, now)) return this.take(lease, worstCasePico, now);
      if (round === MAX_ACQUIRE_ROUNDS) return undefined;
      if (lease) this.retire(state, lease, now);
      if (now < state.declinedUntil) return undefined;
      state.acquiring ??= this.acquire(state, principal, worstCasePico);
      state.waiting += 1;
      state.waitingPico += worstCasePico;
      let acquired: Lease | undefined;
      try {
        acquired = await state.acquiring;
      } finally {
        state.waiting -= 1;
        state.waitingPico -= worstCasePico;
      }
      if (!acquired) return undefined;
    }
  }

  /** The request under `hold` ended and cost `actualPico` (0 when nothing was served). */
  finish(hold: LeaseHold, actualPico: bigint): void {
    const { lease } = hold;
    lease.finish(hold.reservedPico, actualPico);
    if (lease.retired && lease.idle) this.giveBack(lease);
  }

  /** Stops leasing and returns every lease; requests still running are finished by then (drain first). */
  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    const now = this.deps.now();
    for (const state of this.keys.values()) if (state.active) this.retire(state, state.active, now);
    this.keys.clear();
    for (const lease of [...this.draining]) if (lease.idle) this.giveBack(lease);
    await Promise.allSettled([...this.returns]);
  }

  private stateFor(key: string): KeyState {
    let state = this.keys.get(key);
    if (!state) {
      state = {
        active: undefined,
        acquiring: undefined,
        multiple: this.settings.initialMultiple,
        declinedUntil: 0,
        waiting: 0,
        waitingPico: 0n,
      };
      this.keys.set(key, state);
    }
    return state;
  }

  private take(lease: Lease, worstCasePico: bigint, now: number): LeaseHold {
    lease.reserve(worstCasePico, now);
    return { lease, reservedPico: worstCasePico };
  }

  private async acquire(
    state: KeyState,
    principal: Principal,
    worstCasePico: bigint,
  ): Promise<Lease | undefined> {
    const id = `lease-${randomUUID()}`;
    const unit = worstCasePico > 0n ? worstCasePico : 1n;
    const minPico = unit * BigInt(this.settings.minMultiple);
    // As many requests as worst cases of money: billing counts them against the account's request
    // ceiling up front, so a quiet key's lease takes few; one used up fast doubles both next time.
    // The requests already waiting (this one and those queued on the acquisition before) are covered
    // whatever the multiple: each would otherwise hold its worst case through its own Admit.
    const multiple = Math.max(state.multiple, this.settings.minMultiple, state.waiting + 1);
    const demandPico = state.waitingPico + unit;
    const forecastPico = unit * BigInt(multiple);
    try {
      const response = await this.deps.billing.acquireLease({
        leaseId: id,
        accountId: principal.accountId,
        keyHash: principal.keyHash,
        keyLimit: keyLimitOf(principal),
        requestedPico: demandPico > forecastPico ? demandPico : forecastPico,
        minPico,
        requestedRequests: multiple,
      });
      const now = this.deps.now();
      if (!response.granted || response.grantedPico < minPico) {
        recordLeaseGrant("declined");
        state.declinedUntil = now + this.settings.declinedBackoffMs;
        return undefined;
      }
      const lease = new Lease(
        id,
        principal.accountId,
        response.grantedPico,
        now,
        Number(response.useUntilUnixMs),
        response.grantedRequests,
      );
      state.active = lease;
      recordLeaseGrant("granted");
      return lease;
    } catch (error) {
      recordLeaseGrant("failed");
      this.deps.logger.warn(
        { err: error, accountId: principal.accountId },
        "lease not acquired; admitting per request",
      );
      state.declinedUntil = this.deps.now() + this.settings.declinedBackoffMs;
      return undefined;
    } finally {
      state.acquiring = undefined;
    }
  }

  /** No new request under `lease`; a lease used up quickly makes the next one bigger. */
  private retire(state: KeyState, lease: Lease, now: number): void {
    if (state.active === lease) state.active = undefined;
    if (lease.retired) return;
    lease.retired = true;
    const usedUp = now < lease.useUntil && now - lease.grantedAt < this.settings.fastUseMs;
    if (usedUp) state.multiple = Math.min(this.settings.maxMultiple, state.multiple * 2);
    if (lease.idle) this.giveBack(lease);
    else this.draining.add(lease);
  }

  private giveBack(lease: Lease): void {
    this.draining.delete(lease);
    const returned = this.deps.billing
      .returnLease({ leaseId: lease.id, accountId: lease.accountId, spentPico: lease.spentPico })
      .then(
        () => recordLeaseReturn("returned"),
        (error: unknown) => {
          recordLeaseReturn("failed");
          // Not lost money: the lease's hold expires, and every request's cost arrives as a usage event.
          this.deps.logger.warn(
            { err: error, leaseId: lease.id },
            "lease not returned; its hold will expire",
          );
        },
      );
    this.returns.add(returned);
    void returned.finally(() => this.returns.delete(returned));
  }

  private sweep(): void {
    const now = this.deps.now();
    for (const [key, state] of this.keys) {
      const lease = state.active;
      if (
        lease &&
        (now >= lease.useUntil || (lease.idle && now - lease.lastUsedAt >= this.settings.idleReturnMs))
      ) {
        this.retire(state, lease, now);
      }
      if (!state.active && !state.acquiring && now >= state.declinedUntil) this.keys.delete(key);
    }
  }
}

/**
 * Leases are per key and per the key's limit as the edge knows it: a key whose limit changed gets a
 * new lease under the new limit, and the old one is returned once idle.
 */
function leaseKey(principal: Principal): string {
  const limit = principal.limitPico === undefined ? "-" : `${principal.limitPico}:${principal.limitReset}`;
  return `${principal.accountId}\u0000${principal.keyHash}\u0000${limit}\u0000${principal.includeByokInLimit}`;
}
