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

export interface BillingTables {
  ledger_entries: LedgerEntriesTable;
}
