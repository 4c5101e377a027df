import type { Pricing } from "@gw/proto/catalog/v1/catalog";
import { normaliseUsage, type TokenUsage } from "./tokens.js";

export interface Cost {
  promptPico: bigint;
  completionPico: bigint;
  requestPico: bigint;
  totalPico: bigint;
  /**
   * What prompt caching saved against the plain prompt price (OpenRouter's `cache_discount`): positive for
   * cached reads, negative for cache writes priced above input (Anthropic). Absent = 0.
   */
  cacheDiscountPico?: bigint;
  /** The web plugin's search (results at the per-result price), included in `totalPico`. Absent = 0. */
  webSearchPico?: bigint;
  /**
   * Audio: the prompt's audio tokens at the catalogue's audio price (the prompt price where it lists
   * none), part of `promptPico`, plus the audio the model spoke at its audio output price (the
   * completion price where it lists none), part of `completionPico`. Absent = none.
   */
  audioPico?: bigint;
  /** Of `promptPico`: the images at the per-image price. Absent = none. */
  imagePico?: bigint;
}

/** The cost with the web plugin's search added (folded into the total, which the charge and `usage.cost` use). */
export function withWebSearch(cost: Cost, webSearchPico: bigint): Cost {
  if (webSearchPico === 0n) return cost;
  return { ...cost, webSearchPico, totalPico: cost.totalPico + webSearchPico };
}

export const ZERO_COST: Cost = { promptPico: 0n, completionPico: 0n, requestPico: 0n, totalPico: 0n };

/**
 * Exact cost of one request at catalogue prices. Cached reads, cache writes and reasoning tokens have
 * their own price when the catalogue lists one; a price of 0 there means "no separate price", so those
 * tokens are charged at the plain prompt/completion price rather than given away. Images in the prompt
 * are charged at the endpoint's per-image price on top of their tokens, as part of the prompt cost.
 * Audio tokens the provider reports (part of the prompt) are charged at the audio price where the
 * catalogue has one (Gemini Flash, OpenAI's audio models), else at the prompt price, and the audio the
 * model speaks (part of the completion) at its audio output price, else at the completion price; image and document
 * tokens are prompt tokens at the prompt price, which is how OpenAI, Anthropic and Gemini bill them.
 */
export function computeCost(pricing: Pricing | undefined, reported: TokenUsage, images = 0): Cost {
  if (!pricing) return ZERO_COST;
  const usage = normaliseUsage(reported);
  const cacheRead = pricing.cacheReadPico || pricing.promptPico;
  const cacheWrite = pricing.cacheWritePico || pricing.promptPico;
  const longWrite = longCacheWritePrice(pricing);
  const longWrites = BigInt(usage.cacheWriteLongTokens ?? 0);
  const shortWrites = BigInt(usage.cacheWriteTokens) - longWrites;
  const reasoning = pricing.reasoningPico || pricing.completionPico;
  const audio = BigInt(usage.audioTokens ?? 0);
  const audioPico = audio * (pricing.audioPico || pricing.promptPico);
  const imagePico = BigInt(images) * pricing.imagePico;
  const spoken = BigInt(usage.completionAudioTokens ?? 0);
  const spokenPico = spoken * (pricing.audioOutputPico || pricing.completionPico);
  const plainPrompt = BigInt(usage.promptTokens - usage.cachedTokens - usage.cacheWriteTokens) - audio;
  const plainCompletion = BigInt(usage.completionTokens - usage.reasoningTokens) - spoken;
  const promptPico =
    plainPrompt * pricing.promptPico +
    BigInt(usage.cachedTokens) * cacheRead +
    shortWrites * cacheWrite +
    longWrites * longWrite +
    audioPico +
    imagePico;
  const completionPico =
    plainCompletion * pricing.completionPico + BigInt(usage.reasoningTokens) * reasoning + spokenPico;
  const requestPico = pricing.requestPico;
  const cacheDiscountPico =
    BigInt(usage.cachedTokens) * (pricing.promptPico - cacheRead) +
    shortWrites * (pricing.promptPico - cacheWrite) +
    longWrites * (pricing.promptPico - longWrite);
  const totalPico = promptPico + completionPico + requestPico;
  return {
    promptPico,
    completionPico,
    requestPico,
    totalPico,
    cacheDiscountPico,
    ...(audioPico + spokenPico > 0n ? { audioPico: audioPico + spokenPico } : {}),
    ...(imagePico > 0n ? { imagePico } : {}),
  };
}

/**
 * Anthropic's 1-hour cache writes cost twice the base input price (docs.claude.com "Pricing": 5-minute
 * writes 1.25x, 1-hour writes 2x); the catalogue lists the 5-minute price. Only an endpoint with its own
 * cache-write price (explicit caching) has TTL'd writes; elsewhere they are plain prompt tokens.
 */
function longCacheWritePrice(pricing: Pricing): bigint {
  return pricing.cacheWritePico ? pricing.promptPico * 2n : pricing.promptPico;
}
