import type { Generated } from "kysely";

export type LedgerKind = "purchase" | "grant" | "usage" | "refund";
export type CreditKind = Extract<LedgerKind, "purchase" | "grant">;

/**
 * The credit ledger: append-only, one row per money movement, signed USD amounts (credits positive,
 * usage negative). An account's balance is the sum of its rows; nothing is updated or deleted.
 */
export interface LedgerEntriesTable {
  id: Generated<bigint>;
  account_id: string;
  kind: LedgerKind;
  /** numeric(38,12) USD; pg returns it as a string, converted with @gw/money. */
  amount: string;
  /** The usage event's id (= generation id); unique, so a redelivered event cannot debit twice. */
  event_id: string | null;
  /**
   * The operator's or payment's reference; unique where set (a partial index: usage rows have none),
   * so a retried purchase cannot credit twice.
   */
  reference: string | null;
  key_hash: string | null;
  is_byok: Generated<boolean>;
  /** Upstream cost paid on the account's own provider credentials (BYOK); not a ledger debit. */
  byok_cost: Generated<string>;
  model: string | null;
  created_at: Generated<Date>;
}

export type UnsettledState = "pending" | "credited" | "not_settled" | "unresolved";

/** An x402 settle without a verdict, until the reconciler credits or reports it. */
export interface UnsettledPaymentsTable {
  reference: string;
  account_id: string;
  network: string;
  payer: string;
  nonce: string;
  asset: string;
  amount_atomic: string;
  /** PaymentSettled as protobuf JSON (transaction empty). */
  payment: unknown;
  valid_before: Date;
  reason: string;
  state: Generated<UnsettledState>;
  detail: string | null;
  transaction: string | null;
  attempts: Generated<number>;
  recorded_at: Generated<Date>;
  checked_at: Date | null;
  resolved_at: Date | null;
}

export interface BillingTables {
  ledger_entries: LedgerEntriesTable;
  unsettled_payments: UnsettledPaymentsTable;
}
