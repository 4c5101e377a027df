import type { KeyLimitCheck, RateCheck, RateFloor } from "@gw/admission-store";
import { usdToPico } from "@gw/money";
import { type AdmitRequest, type FreeTierLimits, LimitReset } from "@gw/proto/billing/v1/billing";
import { utcDayStart, utcMonthStart, utcWeekStart } from "../time/windows.js";

/**
 * Free-tier limits (spec "Limits"): per account, whatever key or edge the requests come through. Defined
 * here only: admission enforces them (rateChecks) and GetUsage hands them to whoever shows them (the
 * edge's `/v1/key`) as FREE_TIER_LIMITS.
 */
export const FREE_TIER = {
  perMinute: 20,
  perDay: 50,
  perDayAfterPurchase: 1_000,
  purchaseThresholdPico: usdToPico("5"),
} as const;

/** FREE_TIER as GetUsage answers it. */
export const FREE_TIER_LIMITS: FreeTierLimits = {
  requestsPerMinute: FREE_TIER.perMinute,
  requestsPerDay: FREE_TIER.perDay,
  requestsPerDayAfterPurchase: FREE_TIER.perDayAfterPurchase,
  purchaseThresholdPico: FREE_TIER.purchaseThresholdPico,
};

/**
 * The paid-model request ceiling (PAID_REQUESTS_PER_MINUTE): the spec's Limits table leaves paid models'
 * request limits unstated and asks that traffic far beyond reasonable use be blocked. Per account, all
 * keys and edges together, per UTC minute; 2,000 requests per second on average is far above what a
 * person or an agent fleet of one account sends, so only a runaway client or a flood meets it.
 */
export const DEFAULT_PAID_REQUESTS_PER_MINUTE = 120_000;
/** A budget lease takes this share of the ceiling, so unused slices of a few edges strand little of it. */
const LEASE_SLICE_DIVISOR = 16;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Where the key's current spend window starts (0: a lifetime limit counts from the beginning). */
export function keyWindowStart(reset: LimitReset, now: number): number {
  const at = new Date(now);
  switch (reset) {
    case LimitReset.LIMIT_RESET_DAILY:
      return utcDayStart(at).getTime();
    case LimitReset.LIMIT_RESET_WEEKLY:
      return utcWeekStart(at).getTime();
    case LimitReset.LIMIT_RESET_MONTHLY:
      return utcMonthStart(at).getTime();
    default:
      return 0;
  }
}

/** Where the key's current spend window ends; undefined for a lifetime limit (it never resets). */
export function keyWindowEnd(reset: LimitReset, now: number): number | undefined {
  const at = new Date(now);
  switch (reset) {
    case LimitReset.LIMIT_RESET_DAILY:
      return utcDayStart(at).getTime() + DAY_MS;
    case LimitReset.LIMIT_RESET_WEEKLY:
      return utcWeekStart(at).getTime() + 7 * DAY_MS;
    case LimitReset.LIMIT_RESET_MONTHLY:
      return Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
    default:
      return undefined;
  }
}

export function keyLimitCheck(
  request: Pick<AdmitRequest, "keyHash" | "keyLimit">,
  now: number,
): KeyLimitCheck | undefined {
  if (!request.keyLimit || !request.keyHash) return undefined;
  return {
    keyHash: request.keyHash,
    limitPico: request.keyLimit.limitPico,
    windowStartMs: keyWindowStart(request.keyLimit.reset, now),
    includeByok: request.keyLimit.includeByok,
  };
}

/**
 * The request-count windows a request counts against: the free tier's minute and UTC day for `:free`
 * models, and the model's own limit from the catalogue (a fixed window of its interval).
 */
export function rateChecks(request: AdmitRequest, now: number, paidPerMinute = 0): RateCheck[] {
  const checks: RateCheck[] = [];
  if (request.isFreeModel) {
    const { minute, day } = freeWindows(now);
    checks.push(
      { name: "free:minute", limit: FREE_TIER.perMinute, ...minute },
      {
        name: "free:day",
        limit: FREE_TIER.perDay,
        upgrade: { minPurchasedPico: FREE_TIER.purchaseThresholdPico, limit: FREE_TIER.perDayAfterPurchase },
        ...day,
      },
    );
  }
  const model = request.modelLimit;
  if (model && model.requests > 0 && model.intervalSeconds > 0 && request.modelId) {
    const interval = model.intervalSeconds * 1_000;
    const start = now - (now % interval);
    checks.push({
      name: `model:${request.modelId}`,
      limit: model.requests,
      windowStartMs: start,
      windowEndMs: start + interval,
    });
  }
  const paid = request.isFreeModel ? undefined : paidCeiling(paidPerMinute, now);
  if (paid) checks.push(paid);
  return checks;
}

/**
 * The account's paid-model requests in the current minute (`take` of them at once: a lease's slice);
 * undefined when the ceiling is off (0).
 */
export function paidCeiling(perMinute: number, now: number, take = 1): RateCheck | undefined {
  if (perMinute <= 0) return undefined;
  const { minute } = freeWindows(now);
  return { name: "paid:minute", limit: perMinute, ...minute, take };
}

/**
 * How many requests one budget lease may start: what the edge expects to need (`requested`, growing
 * with use like the lease's money, so the many leases of an account with many quiet keys take little
 * each), at most 1/16 of the ceiling and at least 1; 0 when the ceiling is off. A request of 0 (an
 * edge that does not say) takes the whole 1/16.
 */
export function leaseRequestSlice(perMinute: number, requested = 0): number {
  if (perMinute <= 0) return 0;
  const cap = Math.max(1, Math.floor(perMinute / LEASE_SLICE_DIVISOR));
  return requested > 0 ? Math.min(requested, cap) : cap;
}

interface Window {
  windowStartMs: number;
  windowEndMs: number;
}

/** The free tier's current minute and UTC day. */
export function freeWindows(now: number): { minute: Window; day: Window } {
  const minute = now - (now % MINUTE_MS);
  const day = utcDayStart(new Date(now)).getTime();
  return {
    minute: { windowStartMs: minute, windowEndMs: minute + MINUTE_MS },
    day: { windowStartMs: day, windowEndMs: day + DAY_MS },
  };
}

/** What the ledger counted in the free-tier windows: the floors a rebuilt view starts from. */
export function freeRateFloors(now: number, counts: { minute: number; day: number }): RateFloor[] {
  const { minute, day } = freeWindows(now);
  return [
    { name: "free:minute", ...minute, count: counts.minute },
    { name: "free:day", ...day, count: counts.day },
  ];
}
