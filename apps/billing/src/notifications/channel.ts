import type { LedgerEntryUpdate } from "@gw/admission-store";
import { sql, type Transaction } from "kysely";
import type { BillingTables } from "../db/schema.js";

/** Postgres NOTIFY channel: a credit entry committed by any process (the operator CLI included). */
export const LEDGER_CHANNEL = "billing_ledger_credit";

export interface LedgerNotice {
  accountId: string;
  entry: LedgerEntryUpdate;
}

/** Queued inside the writing transaction, so listeners hear of the entry only once it is committed. */
export async function notifyLedgerEntry(
  trx: Transaction<BillingTables>,
  notice: LedgerNotice,
): Promise<void> {
  const payload = JSON.stringify({
    accountId: notice.accountId,
    entryId: notice.entry.entryId.toString(),
    amountPico: notice.entry.amountPico.toString(),
    isPurchase: notice.entry.isPurchase === true,
  });
  await sql`select pg_notify(${LEDGER_CHANNEL}, ${payload})`.execute(trx);
}

export function parseLedgerNotice(payload: string | undefined): LedgerNotice | undefined {
  if (!payload) return undefined;
  try {
    const value: unknown = JSON.parse(payload);
    if (typeof value !== "object" || value === null) return undefined;
    const { accountId, entryId, amountPico, isPurchase } = value as Record<string, unknown>;
    if (typeof accountId !== "string" || typeof entryId !== "string" || typeof amountPico !== "string") {
      return undefined;
    }
    return {
      accountId,
      entry: { entryId: BigInt(entryId), amountPico: BigInt(amountPico), isPurchase: isPurchase === true },
    };
  } catch {
    return undefined;
  }
}
