/**
 * The fakes' own token count, standing in for the upstream tokenizer: one token per 4 characters (code points),
 * rounded up, the rule of thumb OpenAI and Google publish for English text. It is deterministic, so tests can
 * predict usage exactly; it is not meant to match any real tokenizer.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(codePoints(text).length / 4);
}

/** Keeps at most `tokens` tokens' worth of `text`, by the same estimate. */
export function truncateToTokens(text: string, tokens: number): string {
  return codePoints(text)
    .slice(0, Math.max(0, tokens) * 4)
    .join("");
}

function codePoints(text: string): string[] {
  return Array.from(text);
}
