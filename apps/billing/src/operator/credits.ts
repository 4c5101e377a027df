import { MAX_AMOUNT_PICO } from "@gw/admission-store";
import type { Database } from "@gw/db";
import type { BillingTables, CreditKind } from "../db/schema.js";
import { notifyLedgerEntry } from "../notifications/channel.js";
import { accountTotals } from "../repositories/ledger-read.js";
import { insertCreditEntry, inTransaction } from "../repositories/ledger-write.js";

export interface AddCreditsInput {
  accountId: string;
  amountPico: bigint;
  kind: CreditKind;
  /** Idempotency key (payment id, ticket); the same reference never credits twice. */
  reference?: string;
}

export interface AddedCredits {
  entryId: bigint;
  /** False when the reference had already been credited; nothing was written. */
  created: boolean;
}

export class CreditsInputError extends Error {
  override name = "CreditsInputError";
}

/**
 * Operator command: credits an account. The NOTIFY is part of the transaction, so every running
 * billing process applies the entry to its hot view as soon as it is committed.
 */
export async function addCredits(
  database: Pick<Database<BillingTables>, "db">,
  input: AddCreditsInput,
): Promise<AddedCredits> {
  checkCredit(input);
  return inTransaction(database.db, async (trx) => {
    const written = await insertCreditEntry(trx, {
      accountId: input.accountId,
      kind: input.kind,
      amountPico: input.amountPico,
      reference: input.reference ?? null,
    });
    if (!written.inserted) {
      const same =
        written.accountId === input.accountId &&
        written.kind === input.kind &&
        written.amountPico === input.amountPico;
      if (!same)
        throw new CreditsInputError(`reference ${input.reference} was already used for another credit`);
      return { entryId: written.id, created: false };
    }
    await notifyLedgerEntry(trx, {
      accountId: input.accountId,
      entry: { entryId: written.id, amountPico: input.amountPico, isPurchase: input.kind === "purchase" },
    });
    return { entryId: written.id, created: true };
  });
}

export interface Credits {
  totalCreditsPico: bigint;
  totalUsagePico: bigint;
  balancePico: bigint;
  isFreeTier: boolean;
}

export async function getCredits(database: Database<BillingTables>, accountId: string): Promise<Credits> {
  const totals = await accountTotals(database.db, accountId);
  return {
    totalCreditsPico: totals.creditsPico,
    totalUsagePico: totals.usagePico,
    balancePico: totals.creditsPico - totals.usagePico,
    isFreeTier: totals.isFreeTier,
  };
}

function checkCredit(input: AddCreditsInput): void {
  if (!input.accountId) throw new CreditsInputError("account id is required");
  if (input.kind !== "purchase" && input.kind !== "grant") {
    throw new CreditsInputError(`credit kind must be purchase or grant, not ${String(input.kind)}`);
  }
  if (input.amountPico <= 0n) throw new CreditsInputError("credit amount must be positive");
  // One ledger amount must fit the hot view's int64 arithmetic (see @gw/admission-store).
  if (input.amountPico > MAX_AMOUNT_PICO)
    throw new CreditsInputError("credit amount is too large for one entry");
  if (input.reference !== undefined && input.reference.length === 0) {
    throw new CreditsInputError("reference must not be empty");
  }
}
