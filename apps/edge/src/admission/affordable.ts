import type { Principal } from "@gw/auth";
import { GatewayError } from "@gw/errors";
import type { GetUsageResponse } from "@gw/proto/billing/v1/billing";
import { LimitReset } from "@gw/proto/keys/v1/keys";
import type { BillingClient } from "../clients/billing.js";
import type { PlannedAttempt } from "../planning/plan.js";
import { dearestOutputPrice, inputWorstCase, outputBudget, type WorstCaseInput } from "./worst-case.js";

/**
 * OpenRouter's 402 when the budget is positive but the request's worst case does not fit: it says how
 * many output tokens the budget buys, so the client can retry with a lower max_tokens. Its wording:
 * "This request requires more credits, or fewer max_tokens. You requested up to N tokens, but can only
 * afford M." The figures are also `metadata.requested_tokens` and `metadata.affordable_tokens`.
 *
 * Asked only after billing refused (one GetUsage call on the refusal path, never on an admitted
 * request); when it cannot be asked, the refusal keeps billing's own message.
 */
export async function withAffordableTokens(
  billing: BillingClient,
  refusal: GatewayError,
  request: { principal: Principal; attempts: readonly PlannedAttempt[]; worstCase: WorstCaseInput },
): Promise<GatewayError> {
  const source = refusal.metadata?.limit_source;
  if (refusal.code !== "insufficient_credits" && refusal.code !== "quota_exceeded") return refusal;
  if (request.attempts.length === 0) return refusal;
  let usage: GetUsageResponse;
  try {
    usage = await billing.getUsage({
      accountId: request.principal.accountId,
      keyHash: request.principal.keyHash,
    });
  } catch {
    return refusal;
  }
  const available = source === "key" ? keyRemaining(request.principal, usage) : accountRemaining(usage);
  if (available === undefined || available <= 0n) return refusal;
  const requested = Math.max(
    ...request.attempts.map((attempt) => outputBudget(attempt.endpoint, request.worstCase)),
  );
  const affordable = Math.min(
    ...request.attempts.map((attempt) => affordableTokens(attempt, request.worstCase, available)),
  );
  if (affordable >= requested) return refusal;
  const toIncrease = source === "key" ? "raise this key's limit" : "add credits";
  return new GatewayError(
    "payment_required",
    `This request requires more credits, or fewer max_tokens. You requested up to ${requested} tokens, but can only afford ${affordable}. To increase, ${toIncrease}.`,
    {
      ...(refusal.code === "quota_exceeded" ? { code: "quota_exceeded" } : { code: "insufficient_credits" }),
      metadata: { ...refusal.metadata, requested_tokens: requested, affordable_tokens: affordable },
      headers: refusal.headers,
    },
  );
}

/**
 * The output tokens `available` buys on one attempt once its fixed part is paid (the prompt at the
 * dearest input price, the per-request and image prices), at the dearest output price, per choice.
 */
export function affordableTokens(attempt: PlannedAttempt, input: WorstCaseInput, available: bigint): number {
  const pricing = attempt.endpoint.pricing;
  if (!pricing) return Number.MAX_SAFE_INTEGER;
  const outputPrice = dearestOutputPrice(pricing);
  const fixed = inputWorstCase(attempt.endpoint, input);
  const left = available - fixed;
  if (left <= 0n) return 0;
  if (outputPrice === 0n) return Number.MAX_SAFE_INTEGER;
  const tokens = left / outputPrice / BigInt(Math.max(1, input.choices));
  return Number(tokens > BigInt(Number.MAX_SAFE_INTEGER) ? BigInt(Number.MAX_SAFE_INTEGER) : tokens);
}

function accountRemaining(usage: GetUsageResponse): bigint {
  return usage.totalCreditsPico - usage.totalUsagePico;
}

/** What is left of the key's cap in its current window (BYOK spend counts only when the key says so). */
function keyRemaining(principal: Principal, usage: GetUsageResponse): bigint | undefined {
  if (principal.limitPico === undefined) return undefined;
  const [own, byok] =
    principal.limitReset === LimitReset.LIMIT_RESET_DAILY
      ? [usage.keyUsageDailyPico, usage.keyByokUsageDailyPico]
      : principal.limitReset === LimitReset.LIMIT_RESET_WEEKLY
        ? [usage.keyUsageWeeklyPico, usage.keyByokUsageWeeklyPico]
        : principal.limitReset === LimitReset.LIMIT_RESET_MONTHLY
          ? [usage.keyUsageMonthlyPico, usage.keyByokUsageMonthlyPico]
          : [usage.keyUsagePico, usage.keyByokUsagePico];
  return principal.limitPico - (principal.includeByokInLimit ? own + byok : own);
}
