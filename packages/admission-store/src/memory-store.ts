import {
  type AccountLedgerEntry,
  type AccountView,
  type AdmissionStore,
  type AdmissionStoreOptions,
  type AdmitRequest,
  type AdmitResult,
  type ApplyResult,
  type KeyLoadResult,
  type KeySpendSnapshot,
  type LedgerEntryUpdate,
  type LedgerSnapshot,
  type LoadResult,
  type RateCheck,
  type ResolvedStoreOptions,
  type ReturnLeaseResult,
  resolveStoreOptions,
  type SettleResult,
} from "./admission-store.js";
import { keyWindow } from "./redis/keys.js";
import {
  checkAccountId,
  checkAdmitRequest,
  checkAmount,
  checkEntries,
  checkEntry,
  checkKeySnapshot,
  checkRef,
  checkSnapshot,
  checkTime,
} from "./validate.js";

interface Hold {
  amount: bigint;
  expiresAt: number;
}

interface KeyWindow {
  used: bigint;
  seq: bigint;
}

interface Counter {
  count: number;
  windowEndMs: number;
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
  purchased: bigint;
  /** Purchases applied on top of the snapshot. */
  purchases: Map<bigint, bigint>;
  /** Loaded key windows (`<keyHash>@<windowStart>`): ledger spend + holds + pending, and its seq. */
  keys: Map<string, KeyWindow>;
  /** Hold / pending ref → the key window its amount counts in. */
  refKey: Map<string, string>;
  /** Returned lease → when its pending debit expires (the lease hold's expiry). */
  pendingExpiry: Map<string, number>;
  /** Active lease → its usage debits applied so far (Redis: `la:<leaseId>` in refkey). */
  leaseArrived: Map<string, bigint>;
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
  /** Rate counters live apart from the view: invalidating or expiring a view must not reset them. */
  private readonly counters = new Map<string, Counter>();
  private readonly options: ResolvedStoreOptions;
  private readonly clock: () => number;

  constructor(options: MemoryStoreOptions = {}) {
    this.options = resolveStoreOptions(options);
    this.clock = options.clock ?? Date.now;
  }

  async admit(request: AdmitRequest): Promise<AdmitResult> {
    const { accountId, holdId, amountPico, ttlMs, now, keyLimit } = checkAdmitRequest(request);
    const state = this.live(accountId);
    if (!state?.loaded || now - state.loadedAt >= this.options.maxViewAgeMs) return { status: "cold" };
    purgeExpired(state, now);
    const existing = state.holds.get(holdId);
    if (existing) return { status: "admitted", expiresAt: existing.expiresAt };
    const window = keyLimit
      ? keyWindow(keyLimit.keyHash, keyLimit.windowStartMs, keyLimit.includeByok)
      : undefined;
    const keyState = window === undefined ? undefined : state.keys.get(window);
    this.touch(state);
    if (window !== undefined && !keyState) return { status: "cold_key" };
    // A negative balance refuses everything, free requests included; otherwise the hold must fit.
    if (available(state) - amountPico < 0n) {
      return { status: "refused", reason: "insufficient_credits", limitSource: "account" };
    }
    if (keyLimit && keyState && keyState.used + amountPico > keyLimit.limitPico) {
      return { status: "refused", reason: "quota_exceeded", limitSource: "key" };
    }
    const limited = this.countRates(state, accountId, request.rates ?? [], now);
    if (limited) return limited;
    const expiresAt = now + ttlMs;
    state.holds.set(holdId, { amount: amountPico, expiresAt });
    if (window !== undefined && keyState) {
      keyState.used += amountPico;
      state.refKey.set(holdId, window);
    }
    return { status: "admitted", expiresAt };
  }

  /** Checks every rate window first and counts the request in all of them only if each has room. */
  private countRates(
    state: State,
    accountId: string,
    rates: readonly RateCheck[],
    now: number,
  ): AdmitResult | undefined {
    const counters: Array<{ counter: Counter; take: number }> = [];
    for (const rate of rates) {
      const counter = this.counter(`${accountId}:${rate.name}:${rate.windowStartMs}`, rate.windowEndMs, now);
      const limit =
        rate.upgrade && state.purchased >= rate.upgrade.minPurchasedPico ? rate.upgrade.limit : rate.limit;
      const take = rate.take ?? 1;
      if (counter.count + take > limit) {
        return { status: "rate_limited", limitSource: rate.name, limit, resetAtMs: rate.windowEndMs };
      }
      counters.push({ counter, take });
    }
    for (const { counter, take } of counters) counter.count += take;
    this.dropOldCounters(now);
    return undefined;
  }

  private counter(id: string, windowEndMs: number, now: number): Counter {
    let counter = this.counters.get(id);
    if (!counter || counter.windowEndMs + 1_000 <= now) {
      counter = { count: 0, windowEndMs };
      this.counters.set(id, counter);
    }
    return counter;
  }

  private dropOldCounters(now: number): void {
    if (this.counters.size < 10_000) return;
    for (const [id, counter] of this.counters) {
      if (counter.windowEndMs + 1_000 <= now) this.counters.delete(id);
    }
  }

  async load(accountId: string, snapshot: LedgerSnapshot, now: number = Date.now()): Promise<LoadResult> {
    checkAccountId(accountId);
    const { balancePico, seq } = checkSnapshot(snapshot);
    for (const floor of snapshot.rateFloors ?? []) {
      const counter = this.counter(
        `${accountId}:${floor.name}:${floor.windowStartMs}`,
        floor.windowEndMs,
        now,
      );
      counter.count = Math.max(counter.count, floor.count);
    }
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
    let purchased = snapshot.purchasedPico ?? 0n;
    for (const [entryId, amount] of state.purchases) {
      if (entryId <= seq) state.purchases.delete(entryId);
      else purchased += amount;
    }
    // A rebase drops the key windows too; each reloads from the ledger on its next admit.
    state.keys.clear();
    Object.assign(state, { loaded: true, balance, seq, loadedAt: now, purchased });
    this.touch(state);
    return "loaded";
  }

  async loadKey(accountId: string, snapshot: KeySpendSnapshot): Promise<KeyLoadResult> {
    checkAccountId(accountId);
    const { keyHash, windowStartMs, spentPico, seq, includeByok } = checkKeySnapshot(snapshot);
    const state = this.live(accountId);
    if (!state?.loaded) return "cold";
    const window = keyWindow(keyHash, windowStartMs, includeByok);
    if (state.keys.has(window)) return "ignored";
    // Entries the view holds beyond the snapshot would be missing from it: read the ledger again.
    if (state.seq > seq || [...state.applied.keys()].some((id) => id > seq)) return "stale";
    let used = spentPico;
    for (const [ref, refWindow] of state.refKey) {
      if (refWindow !== window) continue;
      used += state.holds.get(ref)?.amount ?? state.pending.get(ref) ?? 0n;
    }
    state.keys.set(window, { used, seq });
    this.touch(state);
    return "loaded";
  }

  async settle(accountId: string, holdId: string, costPico: bigint): Promise<SettleResult> {
    checkAccountId(accountId);
    checkRef("hold id", holdId);
    checkAmount("cost", costPico);
    const state = this.live(accountId);
    if (!state?.loaded) return "cold";
    const hold = state.holds.get(holdId);
    if (!hold) return "no_hold";
    state.holds.delete(holdId);
    state.pending.set(holdId, costPico);
    moveKey(state, holdId, costPico - hold.amount);
    this.touch(state);
    return "settled";
  }

  async release(accountId: string, holdId: string): Promise<boolean> {
    checkAccountId(accountId);
    checkRef("hold id", holdId);
    const state = this.live(accountId);
    if (!state?.loaded || !dropHold(state, holdId)) return false;
    this.touch(state);
    return true;
  }

  async applyLedgerEntry(accountId: string, entry: LedgerEntryUpdate): Promise<ApplyResult> {
    checkAccountId(accountId);
    const { entryId, amountPico, pendingRef, keyHash, createdAtMs, isPurchase, byokPico } = checkEntry(entry);
    const state = this.live(accountId);
    if (!state?.loaded) {
      const cold = state ?? this.create(accountId);
      cold.applied.set(entryId, amountPico);
      if (isPurchase) cold.purchases.set(entryId, amountPico);
      cold.expiresAt = this.clock() + this.options.coldEntryTtlMs;
      return "cold";
    }
    if (pendingRef !== undefined) {
      dropPending(state, pendingRef);
      dropHold(state, pendingRef);
    }
    this.touch(state);
    if (entryId <= state.seq || state.applied.has(entryId)) return "included";
    state.applied.set(entryId, amountPico);
    state.balance += amountPico;
    if (isPurchase) {
      state.purchases.set(entryId, amountPico);
      state.purchased += amountPico;
    }
    if (entry.leaseRef !== undefined && amountPico < 0n) moveLease(state, entry.leaseRef, -amountPico);
    if (keyHash !== undefined) {
      countInKeyWindows(
        state,
        keyHash,
        entryId,
        { spend: -amountPico, byok: byokPico ?? 0n },
        createdAtMs ?? 0,
      );
    }
    return "applied";
  }

  /** In process there is no round trip to save: each entry in turn. */
  async applyLedgerEntries(entries: readonly AccountLedgerEntry[]): Promise<ApplyResult[]> {
    const results: ApplyResult[] = [];
    for (const { accountId, entry } of checkEntries(entries))
      results.push(await this.applyLedgerEntry(accountId, entry));
    return results;
  }

  async returnLease(
    accountId: string,
    leaseId: string,
    spentPico: bigint,
    now: number = Date.now(),
  ): Promise<ReturnLeaseResult> {
    checkAccountId(accountId);
    checkRef("lease id", leaseId);
    checkAmount("lease spend", spentPico);
    checkTime(now);
    const state = this.live(accountId);
    if (!state?.loaded) return "cold";
    purgeExpired(state, now);
    const hold = state.holds.get(leaseId);
    if (!hold) return "no_lease";
    const unapplied = spentPico - (state.leaseArrived.get(leaseId) ?? 0n);
    state.holds.delete(leaseId);
    state.leaseArrived.delete(leaseId);
    moveKey(state, leaseId, -hold.amount);
    if (unapplied > 0n) {
      state.pending.set(leaseId, unapplied);
      state.pendingExpiry.set(leaseId, hold.expiresAt);
      moveKey(state, leaseId, unapplied);
    } else {
      state.refKey.delete(leaseId);
    }
    this.touch(state);
    return "returned";
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
      purchased: 0n,
      purchases: new Map(),
      keys: new Map(),
      refKey: new Map(),
      pendingExpiry: new Map(),
      leaseArrived: new Map(),
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
    if (hold.expiresAt <= now) dropHold(state, holdId);
  }
  for (const [ref, expiresAt] of state.pendingExpiry) {
    if (expiresAt <= now) dropPending(state, ref);
  }
}

function moveKey(state: State, ref: string, delta: bigint): void {
  const window = state.refKey.get(ref);
  const keyState = window === undefined ? undefined : state.keys.get(window);
  if (keyState) keyState.used += delta;
}

function dropPending(state: State, ref: string): void {
  const cost = state.pending.get(ref);
  if (cost === undefined) return;
  state.pending.delete(ref);
  moveKey(state, ref, -cost);
  state.refKey.delete(ref);
  state.pendingExpiry.delete(ref);
  state.leaseArrived.delete(ref);
}

/**
 * A newly applied debit of a lease is in the balance now: its cost leaves the lease's hold (which
 * stays, possibly at 0, until the lease is returned) or, once returned, the lease's pending debit.
 */
function moveLease(state: State, leaseId: string, cost: bigint): void {
  const hold = state.holds.get(leaseId);
  if (hold) {
    const moved = cost < hold.amount ? cost : hold.amount;
    hold.amount -= moved;
    moveKey(state, leaseId, -moved);
    state.leaseArrived.set(leaseId, (state.leaseArrived.get(leaseId) ?? 0n) + cost);
    return;
  }
  const pending = state.pending.get(leaseId);
  if (pending === undefined) return;
  if (cost >= pending) {
    dropPending(state, leaseId);
    return;
  }
  state.pending.set(leaseId, pending - cost);
  moveKey(state, leaseId, -cost);
}

/** Drops a hold and its amount from the key window it was counted in. */
function dropHold(state: State, holdId: string): boolean {
  const hold = state.holds.get(holdId);
  if (!hold) return false;
  state.holds.delete(holdId);
  const window = state.refKey.get(holdId);
  const keyState = window === undefined ? undefined : state.keys.get(window);
  if (keyState) keyState.used -= hold.amount;
  state.refKey.delete(holdId);
  state.leaseArrived.delete(holdId);
  return true;
}

/** A new ledger entry of a key counts in each of its loaded windows that it falls into. */
function countInKeyWindows(
  state: State,
  keyHash: string,
  entryId: bigint,
  amounts: { spend: bigint; byok: bigint },
  at: number,
): void {
  const prefix = `${keyHash}@`;
  for (const [window, keyState] of state.keys) {
    const match = window.startsWith(prefix) ? /^(\d+)(b?)$/.exec(window.slice(prefix.length)) : null;
    if (!match || Number(match[1]) > at || entryId <= keyState.seq) continue;
    keyState.used += amounts.spend + (match[2] === "b" ? amounts.byok : 0n);
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
    purchasedPico: state.purchased,
    keyUsed: Object.fromEntries([...state.keys].map(([window, keyState]) => [window, keyState.used])),
    holds: Object.fromEntries([...state.holds].map(([id, hold]) => [id, hold.amount])),
    pendingDebits: Object.fromEntries(state.pending),
    loadedAt: state.loadedAt,
  };
}
