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
  /**
   * Of `cacheWriteTokens`, those written with Anthropic's 1-hour TTL, which cost more than the 5-minute
   * writes the catalogue's cache-write price is for. Absent = none.
   */
  cacheWriteLongTokens?: number;
  /**
   * Media as the provider reported it, each part of the count beside it: audio, image and document
   * tokens of the prompt (OpenAI's `prompt_tokens_details.audio_tokens`; Gemini's
   * `promptTokensDetails` by modality), audio tokens of the completion. Absent = none reported
   * (Anthropic and OpenAI count images and PDF pages in the prompt without a breakdown).
   */
  audioTokens?: number;
  imageTokens?: number;
  documentTokens?: number;
  completionAudioTokens?: number;
  /**
   * The provider's own web searches run for the answer, as it reported them (Anthropic's
   * `server_tool_use.web_search_requests`, Gemini's grounding); priced per search. Absent = none.
   */
  webSearches?: number;
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
  const cacheWriteTokens = Math.min(whole(usage.cacheWriteTokens), promptTokens - cachedTokens);
  const long = Math.min(whole(usage.cacheWriteLongTokens ?? 0), cacheWriteTokens);
  const reasoningTokens = Math.min(whole(usage.reasoningTokens), completionTokens);
  // Audio is priced apart from the plain prompt, so it is clamped to the tokens not priced as cache.
  const media = {
    audioTokens: Math.min(whole(usage.audioTokens ?? 0), promptTokens - cachedTokens - cacheWriteTokens),
    imageTokens: Math.min(whole(usage.imageTokens ?? 0), promptTokens),
    documentTokens: Math.min(whole(usage.documentTokens ?? 0), promptTokens),
    completionAudioTokens: Math.min(
      whole(usage.completionAudioTokens ?? 0),
      completionTokens - reasoningTokens,
    ),
  };
  return {
    promptTokens,
    completionTokens,
    cachedTokens,
    cacheWriteTokens,
    reasoningTokens,
    ...(long > 0 ? { cacheWriteLongTokens: long } : {}),
    ...Object.fromEntries(Object.entries(media).filter(([, count]) => count > 0)),
    ...(whole(usage.webSearches ?? 0) > 0 ? { webSearches: whole(usage.webSearches ?? 0) } : {}),
  };
}

function whole(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
