import { GatewayError } from "@gw/errors";
import { estimateAddedTokens } from "../admission/worst-case.js";
import type { ChatRequest } from "../canonical/chat-request.js";
import type { RequestFeatures, WebPlugin } from "../canonical/plugins.js";
import type { EdgeContext } from "./edge-context.js";
import { DEFAULT_SEARCH_PROMPT, searchQuery, withSearchResults } from "./web-prompt.js";
import { RESULT_PROMPT_BYTES_MAX, searchWeb, type WebResult } from "./web-search.js";

/**
 * OpenRouter's price of its Exa-backed web search: $4 per 1,000 results (its "Web Search" doc, "Pricing",
 * and the announcement "Introducing Web Search via the API"), i.e. $0.004 = 4·10⁹ pico-USD a result.
 */
export const WEB_RESULT_PICO = 4_000_000_000n;

/** What the web step leaves: the request with the results in its prompt, and the results (for citations and the bill). */
export interface WebSearched {
  request: ChatRequest;
  results: WebResult[] | undefined;
}

/**
 * Runs the web plugin once the request is admitted (serve.ts): the last user message is the query, the
 * results go into the prompt (web-prompt.ts), so the plan and the bill count what the model reads; the
 * hold counted them at their most (webPromptAllowanceTokens).
 */
export async function webSearched(
  context: Pick<EdgeContext, "settings" | "now">,
  request: ChatRequest,
  features: RequestFeatures,
  start: { signal: AbortSignal },
): Promise<WebSearched> {
  const plugin = features.web;
  const settings = context.settings.webSearch;
  if (plugin === undefined || settings === undefined) return { request, results: undefined };
  const query = searchQuery(request);
  if (query === undefined)
    throw new GatewayError(
      "invalid_request",
      "messages: the web plugin needs a user message with text to search for",
      {
        code: "invalid_request",
        metadata: { field: "messages" },
      },
    );
  const results = await searchWeb(settings, query, plugin, start.signal);
  return { request: withSearchResults(request, results, plugin.searchPrompt, context.now()), results };
}

/**
 * The prompt tokens the results may add at most (one system message: the search prompt and every result
 * at its cap). The search runs after admission, so the hold counts these before they exist.
 */
export function webPromptAllowanceTokens(plugin: WebPlugin | undefined): number {
  if (plugin === undefined) return 0;
  const intro = Buffer.byteLength(plugin.searchPrompt ?? DEFAULT_SEARCH_PROMPT, "utf8") + 16;
  return estimateAddedTokens(intro + plugin.maxResults * RESULT_PROMPT_BYTES_MAX, 1);
}

/** The hold's share for the search: every result the plugin may bring, at the per-result price. */
export function webSearchHoldPico(plugin: WebPlugin | undefined): bigint {
  return plugin === undefined ? 0n : BigInt(plugin.maxResults) * WEB_RESULT_PICO;
}

/** What the results the search brought cost. */
export function webSearchPico(results: readonly WebResult[] | undefined): bigint {
  return BigInt(results?.length ?? 0) * WEB_RESULT_PICO;
}
