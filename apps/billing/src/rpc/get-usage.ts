import type { GetUsageRequest, GetUsageResponse } from "@gw/proto/billing/v1/billing";
import { FREE_TIER_LIMITS } from "../admission/limits.js";
import type { BillingContext } from "../deps.js";
import { accountTotals, freeRequestsSince, keySpend } from "../repositories/ledger-read.js";
import { usageWindows } from "../time/windows.js";
import { requireField } from "./store-errors.js";

/** GetUsage: account totals from the ledger, for a key its spend per UTC window, and the free-tier limits. */
export function getUsage(context: BillingContext) {
  return async (request: GetUsageRequest): Promise<GetUsageResponse> => {
    const accountId = requireField("account_id", request.accountId);
    const windows = usageWindows(new Date(context.clock()));
    const [totals, key, freeToday] = await Promise.all([
      accountTotals(context.db, accountId),
      request.keyHash ? keySpend(context.db, accountId, request.keyHash, windows) : undefined,
      freeRequestsSince(context.db, accountId, windows.day),
    ]);
    return {
      totalCreditsPico: totals.creditsPico,
      totalUsagePico: totals.usagePico,
      isFreeTier: totals.isFreeTier,
      totalPurchasedPico: totals.purchasedPico,
      keyUsagePico: key?.usage ?? 0n,
      keyUsageDailyPico: key?.daily ?? 0n,
      keyUsageWeeklyPico: key?.weekly ?? 0n,
      keyUsageMonthlyPico: key?.monthly ?? 0n,
      keyByokUsagePico: key?.byok ?? 0n,
      keyByokUsageDailyPico: key?.byokDaily ?? 0n,
      keyByokUsageWeeklyPico: key?.byokWeekly ?? 0n,
      keyByokUsageMonthlyPico: key?.byokMonthly ?? 0n,
      freeRequestsToday: freeToday,
      freeTier: FREE_TIER_LIMITS,
    };
  };
}
