import {
  type AccountView,
  type AdmissionStore,
  type AdmissionStoreOptions,
  type AdmitRequest,
  type AdmitResult,
  type ApplyResult,
  type LedgerEntryUpdate,
  type LedgerSnapshot,
  type LoadResult,
  type ResolvedStoreOptions,
  resolveStoreOptions,
  type SettleResult,
} from "./admission-store.js";
import {
  checkAccountId,
  checkAdmitRequest,
  checkAmount,
  checkEntry,
  checkRef,
  checkSnapshot,
} from "./validate.js";

interface Hold {
  amount: bigint;
  expiresAt: number;
}

/** One account's state; mirrors the Redis keys of RedisAdmissionStore field for field. */
interface State {
  loaded: boolean;
  balance: bigint;
  seq: bigint;
  loadedAt: number;
  holds: Map<string, Hold>;
  pending: Map<string, bigint>;
  /** Entries applied on top of the snapshot (id → amount), so each counts once and survives a rebase. */
  applied: Map<bigint, bigint>;
  /** Wall-clock expiry of the whole view (the Redis key TTL). */
  expiresAt: number;
}

export interface MemoryStoreOptions extends AdmissionStoreOptions {
  /** The clock for view TTLs (Redis uses its own); hold expiry uses the `now` callers pass. */
  clock?: () => number;
}

/**
 * The embedded default's admission store: the same semantics as RedisAdmissionStore for a single
 * process. Each method runs synchronously to completion, which is what makes it atomic.
 */
export class MemoryAdmissionStore implements AdmissionStore {
  private readonly accounts = new Map<string, State>();
  private readonly options: ResolvedStoreOptions;
  private readonly clock: () => number;

  constructor(options: MemoryStoreOptions = {}) {
    this.options = resolveStoreOptions(options);
    this.clock = options.clock ?? Date.now;
  }

  async admit(request: AdmitRequest): Promise<AdmitResult> {
    const { accountId, holdId, amountPico, ttlMs, now } = checkAdmitRequest(request);
    const state = this.live(accountId);
    if (!state?.loaded || now - state.loadedAt >= this.options.maxViewAgeMs) return { status: "cold" };
    purgeExpired(state, now);
    const existing = state.holds.get(holdId);
    if (existing) return { status: "admitted", expiresAt: existing.expiresAt };
    const after = available(state) - amountPico;
    if (after < 0n || (after === 0n && amountPico === 0n)) {
      this.touch(state);
      return { status: "refused", reason: "insufficient_credits", limitSource: "account" };
    }
    const expiresAt = now + ttlMs;
    state.holds.set(holdId, { amount: amountPico, expiresAt });
    this.touch(state);
    return { status: "admitted", expiresAt };
  }

  async load(accountId: string, snapshot: LedgerSnapshot, now: number = Date.now()): Promise<LoadResult> {
    checkAccountId(accountId);
    const { balancePico, seq } = checkSnapshot(snapshot);
    const state = this.live(accountId) ?? this.create(accountId);
    if (state.loaded && seq < state.seq) {
      this.touch(state);
      return "ignored";
    }
    let balance = balancePico;
    for (const [entryId, amount] of state.applied) {
      if (entryId <= seq) state.applied.delete(entryId);
      else balance += amount;
    }
    Object.assign(state, { loaded: true, balance, seq, loadedAt: now });
    this.touch(state);
    return "loaded";
  }

  async settle(accountId: string, holdId: string, costPico: bigint): Promise<SettleResult> {
    checkAccountId(accountId);
    checkRef("hold id", holdId);
    checkAmount("cost", costPico);
    const state = this.live(accountId);
    if (!state?.loaded) return "cold";
    if (!state.holds.delete(holdId)) return "no_hold";
    state.pending.set(holdId, costPico);
    this.touch(state);
    return "settled";
  }

  async release(accountId: string, holdId: string): Promise<boolean> {
    checkAccountId(accountId);
    checkRef("hold id", holdId);
    const state = this.live(accountId);
    if (!state?.holds.delete(holdId)) return false;
    this.touch(state);
    return true;
  }

  async applyLedgerEntry(accountId: string, entry: LedgerEntryUpdate): Promise<ApplyResult> {
    checkAccountId(accountId);
    const { entryId, amountPico, pendingRef } = checkEntry(entry);
    const state = this.live(accountId);
    if (!state?.loaded) {
      const cold = state ?? this.create(accountId);
      cold.applied.set(entryId, amountPico);
      cold.expiresAt = this.clock() + this.options.coldEntryTtlMs;
      return "cold";
    }
    if (pendingRef !== undefined) {
      state.pending.delete(pendingRef);
      state.holds.delete(pendingRef);
    }
    this.touch(state);
    if (entryId <= state.seq || state.applied.has(entryId)) return "included";
    state.applied.set(entryId, amountPico);
    state.balance += amountPico;
    return "applied";
  }

  async invalidate(accountId: string): Promise<void> {
    this.accounts.delete(checkAccountId(accountId));
  }

  async view(accountId: string, now: number = Date.now()): Promise<AccountView | undefined> {
    const state = this.live(checkAccountId(accountId));
    if (!state?.loaded) return undefined;
    purgeExpired(state, now);
    return toView(state);
  }

  private live(accountId: string): State | undefined {
    const state = this.accounts.get(accountId);
    if (state && state.expiresAt <= this.clock()) {
      this.accounts.delete(accountId);
      return undefined;
    }
    return state;
  }

  private create(accountId: string): State {
    const state: State = {
      loaded: false,
      balance: 0n,
      seq: 0n,
      loadedAt: 0,
      holds: new Map(),
      pending: new Map(),
      applied: new Map(),
      expiresAt: this.clock() + this.options.viewTtlMs,
    };
    this.accounts.set(accountId, state);
    return state;
  }

  private touch(state: State): void {
    state.expiresAt = this.clock() + this.options.viewTtlMs;
  }
}

function purgeExpired(state: State, now: number): void {
  for (const [holdId, hold] of state.holds) {
    if (hold.expiresAt <= now) state.holds.delete(holdId);
  }
}

function sum(values: Iterable<bigint>): bigint {
  let total = 0n;
  for (const value of values) total += value;
  return total;
}

function heldTotal(state: State): bigint {
  return sum([...state.holds.values()].map((hold) => hold.amount));
}

function available(state: State): bigint {
  return state.balance - sum(state.pending.values()) - heldTotal(state);
}

function toView(state: State): AccountView {
  const heldPico = heldTotal(state);
  const pendingPico = sum(state.pending.values());
  return {
    balancePico: state.balance,
    seq: state.seq,
    heldPico,
    pendingPico,
    availablePico: state.balance - pendingPico - heldPico,
    holds: Object.fromEntries([...state.holds].map(([id, hold]) => [id, hold.amount])),
    pendingDebits: Object.fromEntries(state.pending),
    loadedAt: state.loadedAt,
  };
}
