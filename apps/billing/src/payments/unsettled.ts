import { type PaymentSettled, paymentReference } from "@gw/events";
import { recordUnsettledPayment } from "@gw/metrics";
import { PaymentSettled as PaymentSettledMessage } from "@gw/proto/events/v1/payments";
import type { Kysely, Selectable } from "kysely";
import type { BillingTables, UnsettledPaymentsTable, UnsettledState } from "../db/schema.js";
import { InvalidPaymentError } from "./credit-payment.js";

export type UnsettledRow = Selectable<UnsettledPaymentsTable>;

export interface UnsettledInput {
  payment: PaymentSettled;
  validBefore: Date;
  reason: string;
}

/**
 * Keeps a settle without a verdict for the reconciler: once per payment reference (a retry of the
 * same authorization that times out again adds nothing). Nothing is credited here.
 */
export async function recordUnsettled(db: Kysely<BillingTables>, input: UnsettledInput): Promise<boolean> {
  const { payment } = input;
  if (!payment.accountId || !payment.network || !payment.payer || !payment.nonce || !payment.asset)
    throw new InvalidPaymentError("unsettled payment without account, network, payer, nonce or asset");
  if (Number.isNaN(input.validBefore.getTime()))
    throw new InvalidPaymentError("unsettled payment without valid_before");
  const reference = paymentReference(payment.network, payment.payer, payment.nonce);
  const inserted = await db
    .insertInto("unsettled_payments")
    .values({
      reference,
      account_id: payment.accountId,
      network: payment.network,
      payer: payment.payer,
      nonce: payment.nonce,
      asset: payment.asset,
      amount_atomic: payment.amountAtomic,
      payment: JSON.stringify(PaymentSettledMessage.toJSON({ ...payment, paymentReference: reference })),
      valid_before: input.validBefore,
      reason: input.reason.slice(0, 200),
    })
    .onConflict((conflict) => conflict.column("reference").doNothing())
    .returning("reference")
    .executeTakeFirst();
  const created = inserted !== undefined;
  if (created) recordUnsettledPayment("recorded");
  return created;
}

/** The payment a row would be credited with, its transaction filled in. */
export function paymentOf(row: UnsettledRow, transaction: string): PaymentSettled {
  return { ...PaymentSettledMessage.fromJSON(row.payment), transaction };
}

/** For operators: the rows in one state (or all), newest first. */
export async function listUnsettled(
  db: Kysely<BillingTables>,
  query: { state?: UnsettledState | undefined; limit: number },
): Promise<UnsettledRow[]> {
  let select = db.selectFrom("unsettled_payments").selectAll();
  if (query.state) select = select.where("state", "=", query.state);
  return select.orderBy("recorded_at", "desc").limit(query.limit).execute();
}
