import type { Pricing } from "@gw/proto/catalog/v1/catalog";
import { normaliseUsage, type TokenUsage } from "./tokens.js";

export interface Cost {
  promptPico: bigint;
  completionPico: bigint;
  requestPico: bigint;
  totalPico: bigint;
}

export const ZERO_COST: Cost = { promptPico: 0n, completionPico: 0n, requestPico: 0n, totalPico: 0n };

/**
 * Exact cost of one request at catalogue prices. Cached reads, cache writes and reasoning tokens have
 * their own price when the catalogue lists one; a price of 0 there means "no separate price", so those
 * tokens are charged at the plain prompt/completion price rather than given away.
 */
export function computeCost(pricing: Pricing | undefined, reported: TokenUsage): Cost {
  if (!pricing) return ZERO_COST;
  const usage = normaliseUsage(reported);
  const cacheRead = pricing.cacheReadPico || pricing.promptPico;
  const cacheWrite = pricing.cacheWritePico || pricing.promptPico;
  const reasoning = pricing.reasoningPico || pricing.completionPico;
  const plainPrompt = BigInt(usage.promptTokens - usage.cachedTokens - usage.cacheWriteTokens);
  const plainCompletion = BigInt(usage.completionTokens - usage.reasoningTokens);
  const promptPico =
    plainPrompt * pricing.promptPico +
    BigInt(usage.cachedTokens) * cacheRead +
    BigInt(usage.cacheWriteTokens) * cacheWrite;
  const completionPico = plainCompletion * pricing.completionPico + BigInt(usage.reasoningTokens) * reasoning;
  const requestPico = pricing.requestPico;
  return { promptPico, completionPico, requestPico, totalPico: promptPico + completionPico + requestPico };
}
