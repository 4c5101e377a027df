import { RefusalCode } from "@gw/proto/billing/v1/billing";
import { describe, expect, it } from "vitest";
import { toResponse } from "./responses.js";

// The Admit answer the edge turns into 200, 402 or 429 (with Retry-After and X-RateLimit-* headers).

const NOW = 1_800_000_000_000;

describe("toResponse", () => {
  it("an admitted request carries its hold's expiry", () => {
    expect(toResponse({ status: "admitted", expiresAt: NOW + 60_000 }, NOW)).toEqual({
      admitted: true,
      refusal: undefined,
      holdExpiresUnixMs: BigInt(NOW + 60_000),
    });
  });

  it("a refusal for credits names the account, with no retry or rate headers", () => {
    const response = toResponse(
      { status: "refused", reason: "insufficient_credits", limitSource: "account" },
      NOW,
    );
    expect(response).toEqual({
      admitted: false,
      holdExpiresUnixMs: 0n,
      refusal: {
        code: RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS,
        limitSource: "account",
        message: "insufficient credits: the account balance does not cover this request; add credits",
        retryAfterSeconds: 0,
        rateLimit: 0,
        rateRemaining: 0,
        rateResetUnixMs: 0n,
      },
    });
  });

  it("a refusal by the key's limit is quota_exceeded from the key", () => {
    const response = toResponse({ status: "refused", reason: "quota_exceeded", limitSource: "key" }, NOW);
    expect(response.admitted).toBe(false);
    expect(response.refusal).toEqual({
      code: RefusalCode.REFUSAL_CODE_QUOTA_EXCEEDED,
      limitSource: "key",
      message: "this key's spending limit for the current window does not cover this request",
      retryAfterSeconds: 0,
      rateLimit: 0,
      rateRemaining: 0,
      rateResetUnixMs: 0n,
    });
  });

  it("a rate limit names its window and tells when to retry, rounded up to whole seconds", () => {
    const resetAtMs = NOW + 12_001;
    const response = toResponse(
      { status: "rate_limited", limitSource: "free:minute", limit: 20, resetAtMs },
      NOW,
    );
    expect(response).toEqual({
      admitted: false,
      holdExpiresUnixMs: 0n,
      refusal: {
        code: RefusalCode.REFUSAL_CODE_RATE_LIMITED,
        limitSource: "free:minute",
        message: "rate limit exceeded: 20 requests per window (free:minute); retry after the reset",
        retryAfterSeconds: 13,
        rateLimit: 20,
        rateRemaining: 0,
        rateResetUnixMs: BigInt(resetAtMs),
      },
    });
  });

  it("never tells a rate-limited client to retry in less than a second", () => {
    for (const resetAtMs of [NOW, NOW + 1, NOW - 5_000]) {
      const response = toResponse({ status: "rate_limited", limitSource: "m", limit: 1, resetAtMs }, NOW);
      expect(response.refusal?.retryAfterSeconds).toBe(1);
    }
    const exact = toResponse(
      { status: "rate_limited", limitSource: "m", limit: 1, resetAtMs: NOW + 2_000 },
      NOW,
    );
    expect(exact.refusal?.retryAfterSeconds).toBe(2);
  });
});
