import type { PromptText } from "../canonical/prompt-text.js";
import type { TokenUsage } from "../canonical/tokens.js";
import { countTokens } from "./tokenizer.js";

// OpenAI's published chat accounting: a few tokens of framing per message plus the reply primer.
const TOKENS_PER_MESSAGE = 3;
const REPLY_PRIMER_TOKENS = 3;
/** A high-detail 1024×1024 image on GPT-4o-class models; the gateway cannot see the image size cheaply. */
export const IMAGE_TOKEN_ESTIMATE = 765;

/**
 * Counts tokens with a real tokenizer when the provider reported no usage (a broken stream, a client
 * that went away, a host that never sends usage). The result is marked `estimated` by the caller.
 */
export async function estimateUsage(
  prompt: PromptText,
  completionTexts: readonly string[],
): Promise<TokenUsage> {
  const [promptCounts, completionCounts] = await Promise.all([
    countTokens(prompt.texts),
    countTokens(completionTexts),
  ]);
  const promptTokens =
    sum(promptCounts) +
    prompt.messageCount * TOKENS_PER_MESSAGE +
    REPLY_PRIMER_TOKENS +
    prompt.imageCount * IMAGE_TOKEN_ESTIMATE;
  return {
    promptTokens,
    completionTokens: sum(completionCounts),
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
