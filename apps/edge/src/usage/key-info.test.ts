import type { GetUsageResponse } from "@gw/proto/billing/v1/billing";
import { LimitReset } from "@gw/proto/keys/v1/keys";
import { describe, expect, it } from "vitest";
import { BILLING_FREE_TIER } from "../test/billing.js";
import { testKey } from "../test/principals.js";
import { keyInfo, windowUsagePico } from "./key-info.js";

const USD = 1_000_000_000_000n;

const usage: GetUsageResponse = {
  totalCreditsPico: 2n * USD,
  totalUsagePico: USD,
  isFreeTier: false,
  keyUsagePico: 9n * USD,
  keyUsageDailyPico: 1n * USD,
  keyUsageWeeklyPico: 3n * USD,
  keyUsageMonthlyPico: 6n * USD,
  keyByokUsagePico: 4n * USD,
  keyByokUsageDailyPico: USD / 2n,
  keyByokUsageWeeklyPico: USD,
  keyByokUsageMonthlyPico: 2n * USD,
  freeRequestsToday: 7,
  totalPurchasedPico: 2n * USD,
  freeTier: BILLING_FREE_TIER,
};

describe("keyInfo", () => {
  it("maps every field of the decisions page, USD as numbers", () => {
    const { principal } = testKey("acct-1", {
      label: "lr_live_abc...wxyz",
      limitPico: 10n * USD,
      limitReset: LimitReset.LIMIT_RESET_WEEKLY,
      expiresAt: new Date("2027-01-01T00:00:00Z"),
    });
    expect(keyInfo(principal, usage)).toEqual({
      label: "lr_live_abc...wxyz",
      limit: 10,
      limit_reset: "weekly",
      limit_remaining: 7,
      usage: 9,
      usage_daily: 1,
      usage_weekly: 3,
      usage_monthly: 6,
      byok_usage: 4,
      byok_usage_daily: 0.5,
      byok_usage_weekly: 1,
      byok_usage_monthly: 2,
      include_byok_in_limit: false,
      is_free_tier: false,
      is_management_key: false,
      is_provisioning_key: false,
      expires_at: "2027-01-01T00:00:00.000Z",
      rate_limit: { requests: 20, interval: "1m", note: expect.any(String) },
      free_model_daily_requests: { limit: 50, used: 7, remaining: 43 },
      workspace_id: "acct-1",
      organization_id: "acct-1",
      creator_user_id: null,
      allowed_data_regions: ["global"],
    });
  });

  it("has no remaining limit without a cap, and never a negative one", () => {
    expect(keyInfo(testKey("a").principal, usage).limit_remaining).toBeNull();
    expect(keyInfo(testKey("a").principal, usage).limit).toBeNull();
    const spent = testKey("a", {
      limitPico: 5n * USD,
      limitReset: LimitReset.LIMIT_RESET_UNSPECIFIED,
    }).principal;
    expect(keyInfo(spent, usage).limit_remaining).toBe(0);
  });

  it("raises the free-model allowance to 1,000 a day once 5 USD were purchased", () => {
    const info = keyInfo(testKey("a").principal, {
      ...usage,
      totalPurchasedPico: 5n * USD,
      freeRequestsToday: 1_200,
    });
    expect(info.free_model_daily_requests).toEqual({ limit: 1_000, used: 1_200, remaining: 0 });
  });

  it("keeps the 50-a-day allowance when credits were granted, not purchased", () => {
    const info = keyInfo(testKey("a").principal, {
      ...usage,
      totalCreditsPico: 10n * USD,
      totalPurchasedPico: 4n * USD,
      freeRequestsToday: 3,
    });
    expect(info.free_model_daily_requests).toEqual({ limit: 50, used: 3, remaining: 47 });
  });

  it("flags management keys under both names", () => {
    const info = keyInfo(testKey("a", { management: true }).principal, usage);
    expect([info.is_management_key, info.is_provisioning_key]).toEqual([true, true]);
  });
});

describe("windowUsagePico", () => {
  it.each([
    [LimitReset.LIMIT_RESET_DAILY, 1n * USD],
    [LimitReset.LIMIT_RESET_WEEKLY, 3n * USD],
    [LimitReset.LIMIT_RESET_MONTHLY, 6n * USD],
    [LimitReset.LIMIT_RESET_UNSPECIFIED, 9n * USD],
  ])("counts the window named by limit_reset (%s)", (limitReset, expected) => {
    expect(windowUsagePico(testKey("a", { limitReset }).principal, usage)).toBe(expected);
  });

  it("adds BYOK spend when the key includes it in its limit", () => {
    const principal = testKey("a", {
      limitReset: LimitReset.LIMIT_RESET_DAILY,
      includeByokInLimit: true,
    }).principal;
    expect(windowUsagePico(principal, usage)).toBe(USD + USD / 2n);
  });
});
