import { GatewayError } from "@gw/errors";
import { type Pico, picoToUsdNumber } from "@gw/money";
import type { UsageSource } from "../usage/billing.js";
import type { CreditsJson } from "./admin-schemas.js";

/** An account's totals as the admin routes show them (billing's ledger; balance = credits - usage). */
export function creditsJson(totals: {
  creditsPico: Pico;
  usagePico: Pico;
  isFreeTier: boolean;
}): CreditsJson {
  return {
    total_credits: picoToUsdNumber(totals.creditsPico),
    total_usage: picoToUsdNumber(totals.usagePico),
    balance: picoToUsdNumber(totals.creditsPico - totals.usagePico),
    is_free_tier: totals.isFreeTier,
  };
}

/**
 * The credits of a page of accounts from billing's GetUsage, a bounded number of calls in flight.
 * Billing unreachable is a 503: a balance of zero would be a claim, not a fallback.
 */
export async function accountCredits(
  source: UsageSource,
  accountIds: readonly string[],
  concurrency = 16,
): Promise<CreditsJson[]> {
  const results: CreditsJson[] = new Array(accountIds.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < accountIds.length) {
      const index = next++;
      results[index] = await oneAccount(source, accountIds[index] ?? "");
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, accountIds.length) }, worker));
  return results;
}

async function oneAccount(source: UsageSource, accountId: string): Promise<CreditsJson> {
  try {
    const usage = await source.getUsage({ accountId, keyHash: "" });
    return creditsJson({
      creditsPico: usage.totalCreditsPico,
      usagePico: usage.totalUsagePico,
      isFreeTier: usage.isFreeTier,
    });
  } catch (error) {
    throw new GatewayError("service_unavailable", "billing service is unavailable", {
      code: "dependency_unavailable",
      cause: error,
    });
  }
}
