import type { AdmissionStore } from "@gw/admission-store";
import { type PaymentSettled, paymentReference, usdcAtomicToPico } from "@gw/events";
import type { Logger } from "@gw/logger";
import { timeLedgerApply } from "@gw/metrics";
import type { Kysely } from "kysely";
import type { BillingTables } from "../db/schema.js";
import { notifyLedgerEntry } from "../notifications/channel.js";
import { insertCreditEntry, inTransaction } from "../repositories/ledger-write.js";

export interface PaymentCreditDeps {
  db: Kysely<BillingTables>;
  store: AdmissionStore;
  logger: Logger;
}

/** A payment that can never be credited (inconsistent figures, no account); never retried. */
export class InvalidPaymentError extends Error {
  override name = "InvalidPaymentError";
}

export interface PaymentCredit {
  entryId: bigint;
  /** False when the payment's reference was already in the ledger: nothing was written. */
  created: boolean;
}

/**
 * Credits one settled x402 payment to its account, exactly once per (network, payer, nonce): the
 * ledger's unique `reference` makes the second insert a no-op, whether it comes from the edge's
 * CreditPayment call, the payments event, a redelivery of either or another billing replica. The
 * NOTIFY in the same transaction tells every billing process; this one also applies the entry to its
 * hot view before returning (idempotent on the entry id), so the caller's next Admit sees the credit.
 */
export async function creditPayment(
  deps: PaymentCreditDeps,
  payment: PaymentSettled,
): Promise<PaymentCredit> {
  const { reference, amountPico } = checkPayment(payment);
  const credit = await timeLedgerApply("payment", () =>
    inTransaction(deps.db, async (trx) => {
      const written = await insertCreditEntry(trx, {
        accountId: payment.accountId,
        kind: "purchase",
        amountPico,
        reference,
      });
      if (!written.inserted) {
        if (written.accountId !== payment.accountId || written.amountPico !== amountPico)
          throw new InvalidPaymentError(`payment ${reference} was already credited with other figures`);
        return { entryId: written.id, created: false };
      }
      await notifyLedgerEntry(trx, {
        accountId: payment.accountId,
        entry: { entryId: written.id, amountPico, isPurchase: true },
      });
      return { entryId: written.id, created: true };
    }),
  );
  await applyToView(deps, payment.accountId, credit.entryId, amountPico);
  return credit;
}

/** The ledger is the truth; a view Redis could not update is rebased from it later. */
async function applyToView(
  deps: PaymentCreditDeps,
  accountId: string,
  entryId: bigint,
  amountPico: bigint,
): Promise<void> {
  try {
    await deps.store.applyLedgerEntry(accountId, { entryId, amountPico, isPurchase: true });
  } catch (error) {
    deps.logger.warn({ err: error, accountId }, "payment credited but not applied to the hot view");
  }
}

function checkPayment(payment: PaymentSettled): { reference: string; amountPico: bigint } {
  if (!payment.accountId) throw new InvalidPaymentError("payment without account_id");
  if (!payment.network || !payment.payer || !payment.nonce)
    throw new InvalidPaymentError("payment without network, payer or nonce");
  const reference = paymentReference(payment.network, payment.payer, payment.nonce);
  if (payment.paymentReference !== reference)
    throw new InvalidPaymentError("payment reference does not match its network, payer and nonce");
  let amountPico: bigint;
  try {
    amountPico = usdcAtomicToPico(payment.amountAtomic);
  } catch {
    throw new InvalidPaymentError(`payment amount ${payment.amountAtomic} is not an atomic amount`);
  }
  if (amountPico <= 0n || amountPico !== payment.amountPico)
    throw new InvalidPaymentError("payment amount is not positive or disagrees with its atomic amount");
  return { reference, amountPico };
}
