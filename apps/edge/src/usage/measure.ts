import type { PromptText } from "../canonical/prompt-text.js";
import { type TokenUsage, ZERO_USAGE } from "../canonical/tokens.js";
import { estimateUsage } from "./estimate.js";

export interface Measured {
  usage: TokenUsage;
  estimated: boolean;
  /** Images in the prompt, billed at the endpoint's per-image price. */
  images?: number;
}

/**
 * The provider's usage when it sent any; otherwise our own count, marked estimated — never a silent zero.
 * An estimate carries the provider's own web searches the answer showed (`searchesShown`), so they are
 * billed even when the usage that reports them never came (web-native.ts `nativeSearchCharge`).
 */
export async function measure(
  reported: TokenUsage | undefined,
  prompt: PromptText,
  completionTexts: () => readonly string[],
  searchesShown = 0,
): Promise<Measured> {
  if (reported) return { usage: reported, estimated: false, images: prompt.imageCount };
  const usage = await estimateUsage(prompt, completionTexts());
  return {
    usage: searchesShown > 0 ? { ...usage, webSearches: searchesShown } : usage,
    estimated: true,
    images: prompt.imageCount,
  };
}

/**
 * What a request that no provider served costs: nothing, unless the client walked away while a
 * provider was already working on it — that provider read the prompt, so the prompt is metered.
 */
export async function unservedMeasure(
  prompt: PromptText,
  cancelled: boolean,
  attempted: boolean,
): Promise<Measured> {
  if (!cancelled || !attempted) return { usage: ZERO_USAGE, estimated: false };
  return { usage: await estimateUsage(prompt, []), estimated: true, images: prompt.imageCount };
}
