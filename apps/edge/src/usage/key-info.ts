import { isManagementKey, type Principal } from "@gw/auth";
import { GatewayError } from "@gw/errors";
import { picoToUsdNumber } from "@gw/money";
import type { FreeTierLimits, GetUsageResponse } from "@gw/proto/billing/v1/billing";
import { LimitReset } from "@gw/proto/keys/v1/keys";

export type LimitResetName = "daily" | "weekly" | "monthly";

/** `GET /v1/key` → `data`: the spec's fields plus what OpenRouter's SDK validates (api-decisions: Own key). */
export interface KeyInfo {
  label: string;
  limit: number | null;
  limit_reset: LimitResetName | null;
  limit_remaining: number | null;
  usage: number;
  usage_daily: number;
  usage_weekly: number;
  usage_monthly: number;
  byok_usage: number;
  byok_usage_daily: number;
  byok_usage_weekly: number;
  byok_usage_monthly: number;
  include_byok_in_limit: boolean;
  is_free_tier: boolean;
  is_management_key: boolean;
  is_provisioning_key: boolean;
  expires_at: string | null;
  rate_limit: { requests: number; interval: string; note: string };
  free_model_daily_requests: { limit: number; used: number; remaining: number };
  workspace_id: string;
  organization_id: string;
  creator_user_id: null;
  allowed_data_regions: string[];
}

const RESET_NAMES: Partial<Record<LimitReset, LimitResetName>> = {
  [LimitReset.LIMIT_RESET_DAILY]: "daily",
  [LimitReset.LIMIT_RESET_WEEKLY]: "weekly",
  [LimitReset.LIMIT_RESET_MONTHLY]: "monthly",
};

/** Spend that counts against the key's cap: the window named by `limit_reset` (lifetime when null). */
export function windowUsagePico(principal: Principal, usage: GetUsageResponse): bigint {
  const reset = RESET_NAMES[principal.limitReset];
  const spend = {
    daily: [usage.keyUsageDailyPico, usage.keyByokUsageDailyPico],
    weekly: [usage.keyUsageWeeklyPico, usage.keyByokUsageWeeklyPico],
    monthly: [usage.keyUsageMonthlyPico, usage.keyByokUsageMonthlyPico],
    lifetime: [usage.keyUsagePico, usage.keyByokUsagePico],
  }[reset ?? "lifetime"];
  const [own = 0n, byok = 0n] = spend ?? [];
  return principal.includeByokInLimit ? own + byok : own;
}

export function keyInfo(principal: Principal, usage: GetUsageResponse): KeyInfo {
  const limitPico = principal.limitPico;
  const remainingPico = limitPico === undefined ? undefined : limitPico - windowUsagePico(principal, usage);
  const free = freeTierOf(usage);
  const dailyLimit =
    usage.totalPurchasedPico >= free.purchaseThresholdPico
      ? free.requestsPerDayAfterPurchase
      : free.requestsPerDay;
  const management = isManagementKey(principal);
  return {
    label: principal.label,
    limit: limitPico === undefined ? null : picoToUsdNumber(limitPico),
    limit_reset: RESET_NAMES[principal.limitReset] ?? null,
    limit_remaining:
      remainingPico === undefined ? null : picoToUsdNumber(remainingPico > 0n ? remainingPico : 0n),
    usage: picoToUsdNumber(usage.keyUsagePico),
    usage_daily: picoToUsdNumber(usage.keyUsageDailyPico),
    usage_weekly: picoToUsdNumber(usage.keyUsageWeeklyPico),
    usage_monthly: picoToUsdNumber(usage.keyUsageMonthlyPico),
    byok_usage: picoToUsdNumber(usage.keyByokUsagePico),
    byok_usage_daily: picoToUsdNumber(usage.keyByokUsageDailyPico),
    byok_usage_weekly: picoToUsdNumber(usage.keyByokUsageWeeklyPico),
    byok_usage_monthly: picoToUsdNumber(usage.keyByokUsageMonthlyPico),
    include_byok_in_limit: principal.includeByokInLimit,
    is_free_tier: usage.isFreeTier,
    is_management_key: management,
    is_provisioning_key: management,
    expires_at: principal.expiresAt ? principal.expiresAt.toISOString() : null,
    rate_limit: {
      requests: free.requestsPerMinute,
      interval: "1m",
      note: "applies per account to :free models; paid models are limited by credits and per-model limits",
    },
    free_model_daily_requests: {
      limit: dailyLimit,
      used: usage.freeRequestsToday,
      remaining: Math.max(0, dailyLimit - usage.freeRequestsToday),
    },
    workspace_id: principal.accountId,
    organization_id: principal.accountId,
    creator_user_id: null,
    allowed_data_regions: ["global"],
  };
}

/**
 * The free-tier limits as billing defines and enforces them (billing's FREE_TIER), from its GetUsage
 * answer: the edge shows them and never restates them. A billing too old to send them is a dependency
 * failure, not a reason to show made-up figures.
 */
function freeTierOf(usage: GetUsageResponse): FreeTierLimits {
  if (usage.freeTier) return usage.freeTier;
  throw new GatewayError("service_unavailable", "the billing service did not report the free-tier limits");
}
