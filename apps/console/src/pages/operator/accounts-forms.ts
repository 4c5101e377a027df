/** The credits route's amount rule (USD, up to 13 digits and 12 decimals), checked before asking. */
const USD_DECIMAL = /^\d{1,13}(\.\d{1,12})?$/;

/** The most one credit may add: billing's limit for one ledger entry (the route refuses more with a 400). */
export const MAX_CREDIT_USD = 1_000_000;

/** Why a typed credit amount cannot be sent; undefined when it can (sent as the exact decimal string). */
export function creditAmountProblem(typed: string): string | undefined {
  const amount = typed.trim();
  if (amount === "") return "Enter an amount in USD, e.g. 25 or 12.50.";
  if (!USD_DECIMAL.test(amount)) return "Enter the amount as a plain decimal number of USD, e.g. 12.50.";
  if (/^0+(\.0+)?$/.test(amount)) return "The amount must be more than zero: the ledger only adds credits.";
  // Compared as a number only to find the amounts over the limit: 13 digits are far beyond it, and a
  // decimal string of up to 25 digits rounds, at worst, to the limit itself (which is allowed).
  if (Number(amount) > MAX_CREDIT_USD)
    return "One credit may add at most $1,000,000 (the ledger's limit for one entry): add a larger amount in several credits.";
  return undefined;
}

/** The credits route's Idempotency-Key for one opening of the dialog: a retry after an error never credits twice. */
export function newIdempotencyKey(): string {
  return `console-${crypto.randomUUID()}`;
}
