import type { ApiFormat, Endpoint } from "./types.js";

/**
 * The request parameter that marks an endpoint as having the provider's own web search, as OpenRouter's
 * model list does (`supported_parameters` holds `web_search_options` for its native-search endpoints) and
 * as the LiteLLM importer writes for `supports_web_search: true`.
 */
export const NATIVE_WEB_SEARCH_PARAMETER = "web_search_options";

// USD per search as LiteLLM's model file prices it (`search_context_cost_per_query`, the medium context
// size, which is what the gateway asks for), dated 2026-07-24 (/work/shared/reference/catalog):
// Anthropic's web search tool $0.01 (its pricing page: $10 per 1,000 searches); Gemini 2.x grounding
// $0.035 per grounded prompt, Gemini 3 $0.014 per search; OpenAI's gpt-4o-search-preview $0.035 and
// gpt-4o-mini-search-preview $0.0275 per call. A pico-USD figure per entry.
const ANTHROPIC_SEARCH_PICO = 10_000_000_000n;
const GEMINI_2_SEARCH_PICO = 35_000_000_000n;
const GEMINI_3_SEARCH_PICO = 14_000_000_000n;
const OPENAI_SEARCH_PICO: readonly (readonly [RegExp, bigint])[] = [
  [/^gpt-4o-mini-search-preview/, 27_500_000_000n],
  [/^gpt-4o-search-preview/, 35_000_000_000n],
];

/**
 * The price of one native web search on an endpoint of a provider speaking `format`, or undefined when
 * the endpoint has no native search the gateway can price: it must list `web_search_options` and be one
 * of the formats whose search the gateway sends (Anthropic's tool, Gemini's Google Search grounding,
 * OpenAI's `web_search_options` on its search models). An unpriced search is never offered: it would
 * be given away.
 */
export function nativeWebSearchPico(
  format: ApiFormat,
  endpoint: Pick<Endpoint, "upstreamModel" | "supportedParameters">,
): bigint | undefined {
  if (!endpoint.supportedParameters.includes(NATIVE_WEB_SEARCH_PARAMETER)) return undefined;
  const model = endpoint.upstreamModel;
  if (format === "anthropic") return ANTHROPIC_SEARCH_PICO;
  if (format === "gemini") return /^gemini-[3-9]/.test(model) ? GEMINI_3_SEARCH_PICO : GEMINI_2_SEARCH_PICO;
  if (format === "openai") return OPENAI_SEARCH_PICO.find(([pattern]) => pattern.test(model))?.[1];
  return undefined;
}

/**
 * Whether the provider bills its native search once per answer, however many queries it ran (OpenAI's
 * search models per call, Gemini 2.x per grounded prompt), rather than per search (Anthropic, and
 * Gemini 3 per search query it runs).
 */
export function nativeWebSearchPerAnswer(format: ApiFormat, upstreamModel: string): boolean {
  if (format === "openai") return true;
  return format === "gemini" && !/^gemini-[3-9]/.test(upstreamModel);
}
