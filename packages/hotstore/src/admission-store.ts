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
 * Every operation is atomic per account. Key spend limits and rate windows will join `admit` as
 * further checks on the same account-scoped state.
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
  /** Applies a committed ledger entry once and drops the pending debit / hold it replaces. */
  applyLedgerEntry(accountId: string, entry: LedgerEntryUpdate): Promise<ApplyResult>;
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
}

export type AdmitResult =
  | { status: "admitted"; expiresAt: number }
  /** No usable view (never loaded, expired, or due for a reload): load a snapshot and retry. */
  | { status: "cold" }
  | { status: "refused"; reason: RefusalReason; limitSource: LimitSource };

export type RefusalReason = "insufficient_credits";
export type LimitSource = "account";

export interface LedgerSnapshot {
  /** Sum of all ledger entries of the account with id ≤ seq. */
  balancePico: bigint;
  /** The highest ledger entry id of the account in the snapshot (0 when it has none). */
  seq: bigint;
}

export interface LedgerEntryUpdate {
  entryId: bigint;
  /** Signed: credits positive, usage negative. */
  amountPico: bigint;
  /** The hold / pending debit this entry makes final (the usage event's generation id). */
  pendingRef?: string;
}

export type LoadResult = "loaded" | "ignored";
export type SettleResult = "settled" | "no_hold" | "cold";
/** `cold`: no loaded view; the entry is remembered briefly so a racing load still counts it. */
export type ApplyResult = "applied" | "included" | "cold";

export interface AccountView {
  balancePico: bigint;
  seq: bigint;
  heldPico: bigint;
  pendingPico: bigint;
  availablePico: bigint;
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
