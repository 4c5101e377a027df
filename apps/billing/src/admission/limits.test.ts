import { type AdmitRequest, LimitReset } from "@gw/proto/billing/v1/billing";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_PAID_REQUESTS_PER_MINUTE,
  FREE_TIER,
  freeRateFloors,
  keyLimitCheck,
  keyWindowEnd,
  keyWindowStart,
  leaseRequestSlice,
  paidCeiling,
  rateChecks,
} from "./limits.js";

// Sunday 2026-03-15 23:59:59.999 UTC: the last instant of a day, a week and (not) a month.
const SUNDAY_LAST = Date.UTC(2026, 2, 15, 23, 59, 59, 999);

const request = (overrides: Partial<AdmitRequest> = {}): AdmitRequest => ({
  holdId: "gen-1",
  accountId: "acct-1",
  keyHash: "k".repeat(64),
  modelId: "meta-llama/llama-3.3-70b-instruct:free",
  isFreeModel: false,
  worstCaseCostPico: 0n,
  ...overrides,
});

describe("key spend windows", () => {
  it("start at 00:00 UTC, Monday 00:00 UTC, the 1st 00:00 UTC, or never (lifetime)", () => {
    expect(keyWindowStart(LimitReset.LIMIT_RESET_DAILY, SUNDAY_LAST)).toBe(Date.UTC(2026, 2, 15));
    expect(keyWindowStart(LimitReset.LIMIT_RESET_WEEKLY, SUNDAY_LAST)).toBe(Date.UTC(2026, 2, 9));
    expect(keyWindowStart(LimitReset.LIMIT_RESET_MONTHLY, SUNDAY_LAST)).toBe(Date.UTC(2026, 2, 1));
    expect(keyWindowStart(LimitReset.LIMIT_RESET_UNSPECIFIED, SUNDAY_LAST)).toBe(0);
  });

  it("roll over at the first instant of the next window", () => {
    const next = SUNDAY_LAST + 1;
    expect(keyWindowStart(LimitReset.LIMIT_RESET_DAILY, next)).toBe(next);
    expect(keyWindowStart(LimitReset.LIMIT_RESET_WEEKLY, next)).toBe(next);
    expect(keyWindowStart(LimitReset.LIMIT_RESET_MONTHLY, Date.UTC(2026, 3, 1))).toBe(Date.UTC(2026, 3, 1));
  });

  it("checks a key only when it has a limit", () => {
    expect(keyLimitCheck(request(), SUNDAY_LAST)).toBeUndefined();
    const limited = request({
      keyLimit: { limitPico: 5n, reset: LimitReset.LIMIT_RESET_DAILY, includeByok: true },
    });
    expect(keyLimitCheck(limited, SUNDAY_LAST)).toEqual({
      keyHash: "k".repeat(64),
      limitPico: 5n,
      windowStartMs: Date.UTC(2026, 2, 15),
      includeByok: true,
    });
  });
});

describe("rate windows", () => {
  it("counts a :free request in the free tier's minute and UTC day, with the purchase upgrade", () => {
    const now = Date.UTC(2026, 2, 15, 10, 30, 42, 5);
    const [minute, day] = rateChecks(request({ isFreeModel: true }), now);
    expect(minute).toEqual({
      name: "free:minute",
      limit: 20,
      windowStartMs: Date.UTC(2026, 2, 15, 10, 30),
      windowEndMs: Date.UTC(2026, 2, 15, 10, 31),
    });
    expect(day).toEqual({
      name: "free:day",
      limit: 50,
      upgrade: { minPurchasedPico: 5_000_000_000_000n, limit: 1_000 },
      windowStartMs: Date.UTC(2026, 2, 15),
      windowEndMs: Date.UTC(2026, 2, 16),
    });
    expect(FREE_TIER.purchaseThresholdPico).toBe(5_000_000_000_000n);
  });

  it("adds the model's own limit from the catalogue, and nothing for a paid model without one", () => {
    const now = Date.UTC(2026, 2, 15, 10, 30, 42);
    expect(rateChecks(request({ modelId: "openai/gpt-4o" }), now)).toEqual([]);
    const limited = request({
      modelId: "openai/o1-pro",
      modelLimit: { requests: 10, intervalSeconds: 3_600 },
    });
    expect(rateChecks(limited, now)).toEqual([
      {
        name: "model:openai/o1-pro",
        limit: 10,
        windowStartMs: Date.UTC(2026, 2, 15, 10),
        windowEndMs: Date.UTC(2026, 2, 15, 11),
      },
    ]);
  });

  it("seeds rebuilt counters with the ledger's counts in the same windows", () => {
    const now = Date.UTC(2026, 2, 15, 10, 30, 42);
    expect(freeRateFloors(now, { minute: 3, day: 17 })).toEqual([
      {
        name: "free:minute",
        windowStartMs: Date.UTC(2026, 2, 15, 10, 30),
        windowEndMs: Date.UTC(2026, 2, 15, 10, 31),
        count: 3,
      },
      {
        name: "free:day",
        windowStartMs: Date.UTC(2026, 2, 15),
        windowEndMs: Date.UTC(2026, 2, 16),
        count: 17,
      },
    ]);
  });
});

describe("key spend window ends", () => {
  it("end at the next UTC day, Monday or 1st, and never for a lifetime limit", () => {
    expect(keyWindowEnd(LimitReset.LIMIT_RESET_DAILY, SUNDAY_LAST)).toBe(Date.UTC(2026, 2, 16));
    expect(keyWindowEnd(LimitReset.LIMIT_RESET_WEEKLY, SUNDAY_LAST)).toBe(Date.UTC(2026, 2, 16));
    expect(keyWindowEnd(LimitReset.LIMIT_RESET_WEEKLY, SUNDAY_LAST + 1)).toBe(Date.UTC(2026, 2, 23));
    expect(keyWindowEnd(LimitReset.LIMIT_RESET_MONTHLY, SUNDAY_LAST)).toBe(Date.UTC(2026, 3, 1));
    expect(keyWindowEnd(LimitReset.LIMIT_RESET_MONTHLY, Date.UTC(2026, 11, 31, 12))).toBe(
      Date.UTC(2027, 0, 1),
    );
    expect(keyWindowEnd(LimitReset.LIMIT_RESET_UNSPECIFIED, SUNDAY_LAST)).toBeUndefined();
  });

  it("a key without a hash is not checked, even with a limit", () => {
    const keyLimit = { limitPico: 5n, reset: LimitReset.LIMIT_RESET_DAILY, includeByok: false };
    expect(keyLimitCheck(request({ keyHash: "", keyLimit }), SUNDAY_LAST)).toBeUndefined();
  });
});

describe("model rate windows", () => {
  it("apply only with a positive count, a positive interval and a model id", () => {
    const now = Date.UTC(2026, 2, 15, 10, 30, 42);
    const check = (modelLimit: { requests: number; intervalSeconds: number }, modelId = "m") =>
      rateChecks(request({ modelId, modelLimit }), now);
    expect(check({ requests: 0, intervalSeconds: 60 })).toEqual([]);
    expect(check({ requests: 5, intervalSeconds: 0 })).toEqual([]);
    expect(check({ requests: 5, intervalSeconds: 60 }, "")).toEqual([]);
    expect(check({ requests: 1, intervalSeconds: 1 })).toEqual([
      { name: "model:m", limit: 1, windowStartMs: now, windowEndMs: now + 1_000 },
    ]);
  });

  it("a :free model with its own limit counts in all three windows, free tier first", () => {
    const now = Date.UTC(2026, 2, 15, 10, 30, 42);
    const checks = rateChecks(
      request({ isFreeModel: true, modelId: "x:free", modelLimit: { requests: 3, intervalSeconds: 60 } }),
      now,
    );
    expect(checks.map((check) => check.name)).toEqual(["free:minute", "free:day", "model:x:free"]);
  });
});

describe("the paid-model request ceiling", () => {
  const now = Date.UTC(2026, 2, 15, 10, 30, 42, 5);
  const minuteStart = Date.UTC(2026, 2, 15, 10, 30);

  it("counts a paid request in the account's UTC minute, a free one not at all", () => {
    const paid = {
      name: "paid:minute",
      limit: 600,
      windowStartMs: minuteStart,
      windowEndMs: minuteStart + 60_000,
      take: 1,
    };
    expect(rateChecks(request({ modelId: "openai/gpt-4o" }), now, 600)).toEqual([paid]);
    expect(
      rateChecks(request({ modelId: "x:free", isFreeModel: true }), now, 600).map((check) => check.name),
    ).toEqual(["free:minute", "free:day"]);
    const limited = request({ modelId: "openai/o1-pro", modelLimit: { requests: 10, intervalSeconds: 60 } });
    expect(rateChecks(limited, now, 600).map((check) => check.name)).toEqual([
      "model:openai/o1-pro",
      "paid:minute",
    ]);
  });

  it("is off at 0 (and by default for callers that pass no ceiling)", () => {
    expect(rateChecks(request({ modelId: "openai/gpt-4o" }), now, 0)).toEqual([]);
    expect(rateChecks(request({ modelId: "openai/gpt-4o" }), now)).toEqual([]);
    expect(paidCeiling(0, now)).toBeUndefined();
    expect(paidCeiling(-1, now)).toBeUndefined();
  });

  it("takes several requests at once for a lease", () => {
    expect(paidCeiling(1, now, 7)).toEqual({
      name: "paid:minute",
      limit: 1,
      windowStartMs: minuteStart,
      windowEndMs: minuteStart + 60_000,
      take: 7,
    });
  });

  it("slices 1/16 of the ceiling per lease, at least one request, none when off", () => {
    expect(leaseRequestSlice(DEFAULT_PAID_REQUESTS_PER_MINUTE)).toBe(7_500);
    expect(leaseRequestSlice(1_600)).toBe(100);
    expect(leaseRequestSlice(1_615)).toBe(100);
    expect(leaseRequestSlice(31)).toBe(1);
    expect(leaseRequestSlice(1)).toBe(1);
    expect(leaseRequestSlice(0)).toBe(0);
    expect(leaseRequestSlice(-5)).toBe(0);
  });

  it("takes what the edge asked for, up to the slice, when it says", () => {
    expect(leaseRequestSlice(1_600, 16)).toBe(16);
    expect(leaseRequestSlice(1_600, 100)).toBe(100);
    expect(leaseRequestSlice(1_600, 101)).toBe(100);
    expect(leaseRequestSlice(1_600, 1)).toBe(1);
    expect(leaseRequestSlice(1_600, 0)).toBe(100);
    expect(leaseRequestSlice(0, 16)).toBe(0);
    expect(leaseRequestSlice(31, 16)).toBe(1);
  });

  it("defaults to 120,000 requests per minute (2,000 per second) per account", () => {
    expect(DEFAULT_PAID_REQUESTS_PER_MINUTE).toBe(120_000);
  });
});
