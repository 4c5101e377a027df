import { GatewayError } from "@gw/errors";
import {
  LimitReset as BillingLimitReset,
  type KeyLimit,
  type Refusal,
  RefusalCode,
} from "@gw/proto/billing/v1/billing";
import type { RequestLimit } from "@gw/proto/catalog/v1/catalog";
import { LimitReset as KeyLimitReset, type Principal } from "@gw/proto/keys/v1/keys";
import { dependencyError } from "@gw/rpc";
import type { BillingClient } from "../clients/billing.js";
import type { LeaseHold } from "./lease.js";

/** A spend hold placed by billing for one request; the generation id doubles as its id. */
export interface RequestHold {
  holdId: string;
  accountId: string;
  keyHash: string;
}

/** How a request was admitted: its own hold, or a reservation under the edge's budget lease. */
export type Hold = RequestHold | LeaseHold;

export function isLeaseHold(hold: Hold): hold is LeaseHold {
  return "lease" in hold;
}

export interface AdmitInput {
  generationId: string;
  principal: Principal;
  modelId: string;
  isFreeModel: boolean;
  worstCasePico: bigint;
  /** The model's own request limit from the catalogue (billing counts it per account). */
  modelLimit?: RequestLimit | undefined;
}

const RESETS: Record<KeyLimitReset, BillingLimitReset> = {
  [KeyLimitReset.LIMIT_RESET_UNSPECIFIED]: BillingLimitReset.LIMIT_RESET_UNSPECIFIED,
  [KeyLimitReset.LIMIT_RESET_DAILY]: BillingLimitReset.LIMIT_RESET_DAILY,
  [KeyLimitReset.LIMIT_RESET_WEEKLY]: BillingLimitReset.LIMIT_RESET_WEEKLY,
  [KeyLimitReset.LIMIT_RESET_MONTHLY]: BillingLimitReset.LIMIT_RESET_MONTHLY,
  [KeyLimitReset.UNRECOGNIZED]: BillingLimitReset.LIMIT_RESET_UNSPECIFIED,
};

/** The key's spending cap as billing checks it (Admit and AcquireLease); undefined when it has none. */
export function keyLimitOf(principal: Principal): KeyLimit | undefined {
  if (principal.limitPico === undefined) return undefined;
  return {
    limitPico: principal.limitPico,
    reset: RESETS[principal.limitReset],
    includeByok: principal.includeByokInLimit,
  };
}

/**
 * One `Admit` call, for a request the budget lease does not cover (see admit-planned.ts): billing checks
 * rate windows and places a hold for the worst-case cost. A refusal becomes 402/429 before any provider is
 * called; billing not answering is a 503, because admitting without a check would let spend pass its
 * limits (fail closed).
 */
export async function admit(billing: BillingClient, input: AdmitInput): Promise<RequestHold> {
  const { principal } = input;
  let response: Awaited<ReturnType<BillingClient["admit"]>>;
  try {
    response = await billing.admit({
      holdId: input.generationId,
      accountId: principal.accountId,
      keyHash: principal.keyHash,
      modelId: input.modelId,
      isFreeModel: input.isFreeModel,
      worstCaseCostPico: input.worstCasePico,
      keyLimit: keyLimitOf(principal),
      modelLimit: input.modelLimit
        ? { requests: input.modelLimit.requests, intervalSeconds: input.modelLimit.intervalSeconds }
        : undefined,
    });
  } catch (error) {
    throw dependencyError("billing service", error);
  }
  if (!response.admitted) throw refusalError(response.refusal);
  return { holdId: input.generationId, accountId: principal.accountId, keyHash: principal.keyHash };
}

export function refusalError(refusal: Refusal | undefined): GatewayError {
  switch (refusal?.code) {
    case RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS:
      return new GatewayError(
        "payment_required",
        refusal.message || "insufficient credits; add credits to continue",
        {
          code: "insufficient_credits",
          metadata: { limit_source: refusal.limitSource || "account" },
        },
      );
    case RefusalCode.REFUSAL_CODE_QUOTA_EXCEEDED:
      return new GatewayError("payment_required", refusal.message || "this key's spending limit is used up", {
        code: "quota_exceeded",
        metadata: { limit_source: refusal.limitSource || "key" },
      });
    case RefusalCode.REFUSAL_CODE_RATE_LIMITED:
      return rateLimitError(refusal);
    default:
      return new GatewayError("payment_required", refusal?.message || "the request was not admitted", {
        code: "admission_refused",
        metadata: { limit_source: refusal?.limitSource || "account" },
      });
  }
}

function rateLimitError(refusal: Refusal): GatewayError {
  // openai-node honours Retry-After only between 0 and 60 s; at least 1 s so clients never spin.
  const retryAfter = Math.max(1, refusal.retryAfterSeconds);
  return new GatewayError("rate_limit", refusal.message || "rate limit exceeded; retry later", {
    code: "rate_limited",
    metadata: { limit_source: refusal.limitSource },
    headers: {
      "Retry-After": String(retryAfter),
      "X-RateLimit-Limit": String(refusal.rateLimit),
      "X-RateLimit-Remaining": String(refusal.rateRemaining),
      "X-RateLimit-Reset": String(refusal.rateResetUnixMs),
    },
  });
}
