/**
 * Billing's hot admission view of an account. Postgres (the ledger) is the truth; this view answers
 * Admit without touching it:
 *
 *   available = balance − pending − held
 *
 * - `balance`: the ledger balance as of a snapshot (`seq` = the highest ledger entry id it covers),
 *   plus ledger entries applied since (each counted once, remembered by id until the next reload).
 * - `held`: active spend holds (worst-case cost of requests in flight), each with an expiry so a
 *   crashed edge cannot pin budget.
 * - `pending`: costs settled on the hot path whose ledger entry has not been applied yet.
 *
 * Per key with a spending limit, the view also keeps the key's spend in its current UTC window
 * (`used` = ledger spend in the window + the key's holds + its pending debits), loaded from the ledger
 * like the balance. Request-count windows (free-tier and model limits) are counters per account.
 * Every operation is atomic per account: `admit` checks balance, key limit and rate windows at once.
 */
export interface AdmissionStore {
  /** Places a hold if the account can afford it. Idempotent on holdId. */
  admit(request: AdmitRequest): Promise<AdmitResult>;
  /**
   * Installs a ledger snapshot. A snapshot at least as new as the view rebases it (holds and pending
   * debits are kept, entries applied after the snapshot are re-added); an older one is ignored.
   */
  load(accountId: string, snapshot: LedgerSnapshot, now?: number): Promise<LoadResult>;
  /** Turns a hold into a pending debit of the actual cost; a missing hold is a no-op. */
  settle(accountId: string, holdId: string, costPico: bigint): Promise<SettleResult>;
  release(accountId: string, holdId: string): Promise<boolean>;
  /**
   * Applies a committed ledger entry once and drops the pending debit / hold it replaces. A debit of
   * a budget lease (`leaseRef`) also moves its cost out of the lease's hold, or, once the lease is
   * returned, out of its pending debit: once per entry, when the entry is newly applied. An entry a
   * snapshot included before its apply arrived is not moved; that residue (budget understated) lasts
   * until the lease's hold or pending debit expires.
   */
  applyLedgerEntry(accountId: string, entry: LedgerEntryUpdate): Promise<ApplyResult>;
  /**
   * Applies committed ledger entries of any accounts, each exactly as `applyLedgerEntry` would, in
   * order: the usage consumer's batch, in one Redis round trip instead of one per entry. Every entry is
   * checked first: a malformed one refuses the whole batch before anything changes. → one result per
   * entry, in order.
   */
  applyLedgerEntries(entries: readonly AccountLedgerEntry[]): Promise<ApplyResult[]>;
  /**
   * Ends a budget lease (a hold placed by `admit` with holdId = lease id): drops its hold and keeps
   * the part of `spentPico` whose ledger entries have not been applied yet as a pending debit of the
   * lease, expiring when the hold would have (a usage event delayed beyond that leaves the budget
   * overstated until it applies, as an expired hold does). An unknown or expired lease, or one
   * already returned, is a no-op.
   */
  returnLease(
    accountId: string,
    leaseId: string,
    spentPico: bigint,
    now?: number,
  ): Promise<ReturnLeaseResult>;
  /** Installs a key's ledger spend for one window (after `admit` answered `cold_key`). */
  loadKey(accountId: string, snapshot: KeySpendSnapshot): Promise<KeyLoadResult>;
  /** Drops the whole view, holds included; the next admit rebuilds it from Postgres. */
  invalidate(accountId: string): Promise<void>;
  /** The current view (expired holds purged), or undefined when nothing is loaded. */
  view(accountId: string, now?: number): Promise<AccountView | undefined>;
}

export interface AdmitRequest {
  accountId: string;
  /** One hold per request: the generation id. */
  holdId: string;
  /** Worst-case cost, pico-dollars, ≥ 0. */
  amountPico: bigint;
  ttlMs: number;
  now: number;
  /** The key's spending cap for its current window; absent when the key has none. */
  keyLimit?: KeyLimitCheck;
  /** Request-count windows this request counts against; every one must have room. */
  rates?: readonly RateCheck[];
}

export interface KeyLimitCheck {
  keyHash: string;
  limitPico: bigint;
  /** Start of the key's current UTC window, ms (0 for a lifetime limit). */
  windowStartMs: number;
  /** The key's include_byok_in_limit: BYOK upstream costs count towards the limit too. */
  includeByok?: boolean;
}

export interface RateCheck {
  /** Names the counter and the refusal's limit source, e.g. `free:minute` or `model:<id>`. */
  name: string;
  limit: number;
  /** A higher limit once the account's purchases reach `minPurchasedPico` (the free-tier daily one). */
  upgrade?: { minPurchasedPico: bigint; limit: number };
  /** The fixed window holding `now`, ms; the counter expires at its end. */
  windowStartMs: number;
  windowEndMs: number;
  /**
   * How many requests this admit counts at once (default 1): a budget lease takes a slice of the
   * window for the requests its edge will admit locally. All of it must fit, or nothing is counted.
   */
  take?: number;
}

export type AdmitResult =
  | { status: "admitted"; expiresAt: number }
  /** No usable view (never loaded, expired, or due for a reload): load a snapshot and retry. */
  | { status: "cold" }
  /** The account view is warm but the key's window is not loaded: `loadKey`, then retry. */
  | { status: "cold_key" }
  | { status: "refused"; reason: "insufficient_credits"; limitSource: "account" }
  | { status: "refused"; reason: "quota_exceeded"; limitSource: "key" }
  | { status: "rate_limited"; limitSource: string; limit: number; resetAtMs: number };

export type RefusalReason = "insufficient_credits" | "quota_exceeded";
export type LimitSource = "account" | "key";

export interface LedgerSnapshot {
  /** Sum of all ledger entries of the account with id ≤ seq. */
  balancePico: bigint;
  /** The highest ledger entry id of the account in the snapshot (0 when it has none). */
  seq: bigint;
  /** Sum of the account's purchases with id ≤ seq (raises the free-tier daily limit). */
  purchasedPico?: bigint;
  /**
   * Request counts the ledger knows for current rate windows: a counter below its floor is raised to
   * it, so a lost Redis does not hand out a fresh free-tier allowance.
   */
  rateFloors?: readonly RateFloor[];
}

export interface RateFloor {
  name: string;
  windowStartMs: number;
  windowEndMs: number;
  count: number;
}

export interface KeySpendSnapshot {
  keyHash: string;
  windowStartMs: number;
  /** The key's usage debits net of refunds since the window start (+ BYOK costs when counted), id ≤ seq. */
  spentPico: bigint;
  includeByok?: boolean;
  /** The account's highest ledger entry id when the spend was read. */
  seq: bigint;
}

/** `stale`: the view has entries newer than the snapshot; read it again. `cold`: no account view. */
export type KeyLoadResult = "loaded" | "ignored" | "stale" | "cold";

export interface LedgerEntryUpdate {
  entryId: bigint;
  /** Signed: credits positive, usage negative. */
  amountPico: bigint;
  /** The hold / pending debit this entry makes final (the usage event's generation id). */
  pendingRef?: string;
  /** A usage or refund entry's key and time: counted in that key's loaded windows. */
  keyHash?: string;
  createdAtMs?: number;
  /** A purchase: counts towards the free-tier upgrade. */
  isPurchase?: boolean;
  /** Upstream cost paid on the account's own provider key: counts in windows that include BYOK. */
  byokPico?: bigint;
  /** The budget lease the request was admitted under (the usage event's lease id). */
  leaseRef?: string;
}

/** One entry of a batch apply: the account it belongs to and the entry. */
export interface AccountLedgerEntry {
  accountId: string;
  entry: LedgerEntryUpdate;
}

export type LoadResult = "loaded" | "ignored";
export type SettleResult = "settled" | "no_hold" | "cold";
/** `no_lease`: no active hold of that id (unknown, expired or already returned): nothing changed. */
export type ReturnLeaseResult = "returned" | "no_lease" | "cold";
/** `cold`: no loaded view; the entry is remembered briefly so a racing load still counts it. */
export type ApplyResult = "applied" | "included" | "cold";

export interface AccountView {
  balancePico: bigint;
  seq: bigint;
  heldPico: bigint;
  pendingPico: bigint;
  availablePico: bigint;
  purchasedPico: bigint;
  /** Loaded key windows (`<keyHash>@<windowStartMs>`, `b` appended when BYOK counts) → used spend. */
  keyUsed: Record<string, bigint>;
  holds: Record<string, bigint>;
  pendingDebits: Record<string, bigint>;
  loadedAt: number;
}

export interface AdmissionStoreOptions {
  /** Idle views expire after this long and are rebuilt from Postgres (default 1 h). */
  viewTtlMs?: number;
  /**
   * A view older than this answers `cold` so the caller rebases it on a fresh snapshot (default
   * 5 min). This bounds drift from a lost apply and the size of the applied-entry memory.
   */
  maxViewAgeMs?: number;
  /** How long an entry applied to an unloaded view is remembered for a racing load (default 60 s). */
  coldEntryTtlMs?: number;
}

export const DEFAULT_VIEW_TTL_MS = 60 * 60 * 1000;
export const DEFAULT_MAX_VIEW_AGE_MS = 5 * 60 * 1000;
export const DEFAULT_COLD_ENTRY_TTL_MS = 60 * 1000;

export interface ResolvedStoreOptions {
  viewTtlMs: number;
  maxViewAgeMs: number;
  coldEntryTtlMs: number;
}

export function resolveStoreOptions(options: AdmissionStoreOptions = {}): ResolvedStoreOptions {
  return {
    viewTtlMs: options.viewTtlMs ?? DEFAULT_VIEW_TTL_MS,
    maxViewAgeMs: options.maxViewAgeMs ?? DEFAULT_MAX_VIEW_AGE_MS,
    coldEntryTtlMs: options.coldEntryTtlMs ?? DEFAULT_COLD_ENTRY_TTL_MS,
  };
}
