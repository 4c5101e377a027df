import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// x402 settles whose outcome is unknown (issue 33): the facilitator gave no verdict, so the money may
// have moved. One row per payment reference; the reconciler (payments/reconcile.ts) asks the chain and
// credits it once (state `credited`) or reports it (`not_settled`, `unresolved`). Operators list them.
export const unsettledPayments: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable("unsettled_payments")
      .addColumn("reference", "text", (column) => column.primaryKey())
      .addColumn("account_id", "text", (column) => column.notNull())
      .addColumn("network", "text", (column) => column.notNull())
      .addColumn("payer", "text", (column) => column.notNull())
      .addColumn("nonce", "text", (column) => column.notNull())
      .addColumn("asset", "text", (column) => column.notNull())
      .addColumn("amount_atomic", "text", (column) => column.notNull())
      /** The PaymentSettled payload it would be credited with (protobuf JSON), transaction empty. */
      .addColumn("payment", "jsonb", (column) => column.notNull())
      .addColumn("valid_before", "timestamptz", (column) => column.notNull())
      .addColumn("reason", "text", (column) => column.notNull())
      .addColumn("state", "text", (column) => column.notNull().defaultTo("pending"))
      .addColumn("detail", "text")
      .addColumn("transaction", "text")
      .addColumn("attempts", "integer", (column) => column.notNull().defaultTo(0))
      .addColumn("recorded_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .addColumn("checked_at", "timestamptz")
      .addColumn("resolved_at", "timestamptz")
      .execute();
    await sql`create index unsettled_payments_pending on unsettled_payments (checked_at nulls first)
      where state = 'pending'`.execute(db);
  },
};
