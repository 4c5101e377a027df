import type { AdmitResult } from "@gw/admission-store";
import { type AdmitResponse, type Refusal, RefusalCode } from "@gw/proto/billing/v1/billing";

type Answer = Exclude<AdmitResult, { status: "cold" } | { status: "cold_key" }>;

/** The store's answer as the edge receives it; the edge maps refusals to 402/429. */
export function toResponse(result: Answer, now: number): AdmitResponse {
  if (result.status === "admitted") {
    return { admitted: true, refusal: undefined, holdExpiresUnixMs: BigInt(result.expiresAt) };
  }
  return { admitted: false, refusal: refusal(result, now), holdExpiresUnixMs: 0n };
}

function refusal(result: Exclude<Answer, { status: "admitted" }>, now: number): Refusal {
  const none = { retryAfterSeconds: 0, rateLimit: 0, rateRemaining: 0, rateResetUnixMs: 0n };
  if (result.status === "rate_limited") {
    return {
      code: RefusalCode.REFUSAL_CODE_RATE_LIMITED,
      limitSource: result.limitSource,
      message: `rate limit exceeded: ${result.limit} requests per window (${result.limitSource}); retry after the reset`,
      retryAfterSeconds: Math.max(1, Math.ceil((result.resetAtMs - now) / 1_000)),
      rateLimit: result.limit,
      rateRemaining: 0,
      rateResetUnixMs: BigInt(result.resetAtMs),
    };
  }
  if (result.reason === "quota_exceeded") {
    return {
      code: RefusalCode.REFUSAL_CODE_QUOTA_EXCEEDED,
      limitSource: "key",
      message: "this key's spending limit for the current window does not cover this request",
      ...none,
    };
  }
  return {
    code: RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS,
    limitSource: "account",
    message: "insufficient credits: the account balance does not cover this request; add credits",
    ...none,
  };
}
