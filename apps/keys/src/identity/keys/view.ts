import { picoToUsdNumber, usdToPico } from "@gw/money";
import type { ApiKeyRow } from "../repositories/api-keys.js";
import type { KeyUsage } from "../usage/billing.js";

/** The Key object of every key-management response (field list: api-decisions "Keys"). */
export interface KeyJson {
  hash: string;
  name: string;
  label: string;
  key_type: "management" | "regular";
  disabled: boolean;
  limit: number | null;
  limit_remaining: number | null;
  limit_reset: "daily" | "weekly" | "monthly" | null;
  include_byok_in_limit: boolean;
  allowed_providers: string[] | null;
  allowed_models: string[] | null;
  usage: number;
  usage_daily: number;
  usage_weekly: number;
  usage_monthly: number;
  byok_usage: number;
  byok_usage_daily: number;
  byok_usage_weekly: number;
  byok_usage_monthly: number;
  created_at: string;
  updated_at: string;
  expires_at: string | null;
  workspace_id: string;
  creator_user_id: string | null;
  external_user: string | null;
}

export function keyView(row: ApiKeyRow, usage: KeyUsage): KeyJson {
  const limitPico = row.limit === null ? null : usdToPico(row.limit);
  return {
    hash: row.hash,
    name: row.name,
    label: row.label,
    key_type: row.key_type,
    disabled: row.disabled,
    limit: limitPico === null ? null : picoToUsdNumber(limitPico),
    limit_remaining: limitPico === null ? null : picoToUsdNumber(remaining(limitPico, row, usage)),
    limit_reset: row.limit_reset,
    include_byok_in_limit: row.include_byok_in_limit,
    allowed_providers: row.allowed_providers,
    allowed_models: row.allowed_models,
    usage: picoToUsdNumber(usage.usage),
    usage_daily: picoToUsdNumber(usage.daily),
    usage_weekly: picoToUsdNumber(usage.weekly),
    usage_monthly: picoToUsdNumber(usage.monthly),
    byok_usage: picoToUsdNumber(usage.byok),
    byok_usage_daily: picoToUsdNumber(usage.byokDaily),
    byok_usage_weekly: picoToUsdNumber(usage.byokWeekly),
    byok_usage_monthly: picoToUsdNumber(usage.byokMonthly),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
    workspace_id: row.account_id,
    creator_user_id: null,
    external_user: null,
  };
}

/**
 * The cap applies to spend in the current UTC window of `limit_reset` (lifetime when null); BYOK spend
 * counts only when the key says so. Never negative: spend can overshoot a cap by the estimate error.
 */
export function remaining(limitPico: bigint, row: ApiKeyRow, usage: KeyUsage): bigint {
  const spent = windowSpend(row, usage);
  return limitPico > spent ? limitPico - spent : 0n;
}

function windowSpend(row: ApiKeyRow, usage: KeyUsage): bigint {
  const [own, byok] =
    row.limit_reset === "daily"
      ? [usage.daily, usage.byokDaily]
      : row.limit_reset === "weekly"
        ? [usage.weekly, usage.byokWeekly]
        : row.limit_reset === "monthly"
          ? [usage.monthly, usage.byokMonthly]
          : [usage.usage, usage.byok];
  return row.include_byok_in_limit ? own + byok : own;
}
