/**
 * Token counts in the edge's canonical form (OpenAI's accounting): `promptTokens` includes cached reads
 * and cache writes, `completionTokens` includes reasoning tokens. Every surface and provider maps to and
 * from this.
 */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
}

export const ZERO_USAGE: TokenUsage = {
  promptTokens: 0,
  completionTokens: 0,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
};

export function totalTokens(usage: TokenUsage): number {
  return usage.promptTokens + usage.completionTokens;
}

/** Providers occasionally report parts larger than the whole; parts are clamped so no count goes negative. */
export function normaliseUsage(usage: TokenUsage): TokenUsage {
  const promptTokens = whole(usage.promptTokens);
  const completionTokens = whole(usage.completionTokens);
  const cachedTokens = Math.min(whole(usage.cachedTokens), promptTokens);
  return {
    promptTokens,
    completionTokens,
    cachedTokens,
    cacheWriteTokens: Math.min(whole(usage.cacheWriteTokens), promptTokens - cachedTokens),
    reasoningTokens: Math.min(whole(usage.reasoningTokens), completionTokens),
  };
}

function whole(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
