import { picoToDecimalString } from "@gw/money";
import type { GetUsageResponse } from "@gw/proto/billing/v1/billing";
import { expect } from "vitest";
import { eventually } from "./eventually.js";
import type { Harness } from "./harness.js";

/** Shared by the overshoot invariant tests (per-request Admit, and leases mixed with Admit). */

// Worst case of one request: 1,000 prompt tokens at 2.5 USD/M and 500 output tokens at 10 USD/M.
export const WORST = 1_000n * 2_500_000n + 500n * 10_000_000n;

/**
 * Deterministic spread of actual costs: 30–100 % of the worst case, or, when `short`, 110–130 % of it
 * for every request (an estimator that is systematically low, the worst case for the invariant).
 */
export function actualCost(index: number, short: boolean): bigint {
  const percent = short ? 110n + BigInt(index % 21) : 30n + BigInt((index * 37) % 71);
  return (WORST * percent) / 100n;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const usd = (pico: bigint) => `${picoToDecimalString(pico)} USD`;

/** The account's (and key's) usage once the ledger holds exactly `expected` usage debits. */
export function ledgerUsage(
  harness: Harness,
  account: string,
  keyHash: string,
  expected: number,
): Promise<GetUsageResponse> {
  return eventually(async () => {
    const rows = await harness.db.database.db
      .selectFrom("ledger_entries")
      .select("amount")
      .where("account_id", "=", account)
      .where("kind", "=", "usage")
      .execute();
    expect(rows).toHaveLength(expected);
    return harness.rpc.getUsage({ accountId: account, keyHash });
  });
}
