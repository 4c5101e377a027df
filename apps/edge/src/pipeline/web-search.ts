import { GatewayError } from "@gw/errors";
import type { WebPlugin } from "../canonical/plugins.js";

/** The operator's Exa-compatible search API (WEB_SEARCH_URL, WEB_SEARCH_API_KEY, WEB_SEARCH_TIMEOUT_MS). */
export interface WebSearchSettings {
  /** Base URL; the search is `POST {url}/search`. */
  url: string;
  /** Sent as `x-api-key`; never logged. */
  apiKey: string;
  timeoutMs: number;
}

/** One search result as the prompt and the citations use it. */
export interface WebResult {
  url: string;
  title: string;
  text: string | undefined;
  publishedDate: string | undefined;
}

/** Page text per result given to the model: enough to answer from, bounded so the prompt stays small. */
const RESULT_TEXT_CHARACTERS = 1_000;
/** A result's title is cut here and a longer URL leaves the result out, so each result is bounded. */
const RESULT_TITLE_CHARACTERS = 200;
const RESULT_URL_CHARACTERS = 1_000;
/**
 * The most UTF-8 bytes one result adds to the prompt (text, title, URL, date and the markup around them):
 * the hold is placed before the search runs, so it is sized on this, not on what the search brings.
 */
export const RESULT_PROMPT_BYTES_MAX =
  (RESULT_TEXT_CHARACTERS + RESULT_TITLE_CHARACTERS + RESULT_URL_CHARACTERS) * 4 + 64;

/**
 * Searches the operator's Exa-compatible API (exa.ai/docs/reference/search: `POST /search` with
 * `x-api-key`, `{query, numResults, contents: {text: {maxCharacters}}, includeDomains?, excludeDomains?}`),
 * as OpenRouter's web plugin does with Exa. A failure, a timeout or a malformed answer is a 502 naming
 * the search provider: answering without the search the caller asked for would be a silent drop.
 */
export async function searchWeb(
  settings: WebSearchSettings,
  query: string,
  plugin: WebPlugin,
  signal: AbortSignal,
): Promise<WebResult[]> {
  const body = {
    query,
    numResults: plugin.maxResults,
    contents: { text: { maxCharacters: RESULT_TEXT_CHARACTERS } },
    ...(plugin.includeDomains ? { includeDomains: plugin.includeDomains } : {}),
    ...(plugin.excludeDomains ? { excludeDomains: plugin.excludeDomains } : {}),
  };
  let response: Response;
  try {
    response = await fetch(`${settings.url.replace(/\/+$/, "")}/search`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": settings.apiKey },
      body: JSON.stringify(body),
      signal: AbortSignal.any([signal, AbortSignal.timeout(settings.timeoutMs)]),
    });
  } catch (error) {
    if (signal.aborted) throw error;
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    throw searchFailed(timedOut ? `did not answer within ${settings.timeoutMs} ms` : "could not be reached");
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw searchFailed(`answered HTTP ${response.status}`);
  }
  const results = resultsOf(await response.json().catch(() => undefined));
  if (results === undefined) throw searchFailed("answered a body that is not a search result list");
  return results.slice(0, plugin.maxResults);
}

function resultsOf(json: unknown): WebResult[] | undefined {
  if (!isRecord(json) || !Array.isArray(json.results)) return undefined;
  const results: WebResult[] = [];
  for (const item of json.results) {
    if (!isRecord(item) || typeof item.url !== "string") return undefined;
    if (item.url.length > RESULT_URL_CHARACTERS) continue;
    const title = typeof item.title === "string" && item.title !== "" ? item.title : item.url;
    results.push({
      url: item.url,
      title: title.slice(0, RESULT_TITLE_CHARACTERS),
      // The provider is asked for at most this much; one that sends more is cut, not trusted.
      text: typeof item.text === "string" ? item.text.slice(0, RESULT_TEXT_CHARACTERS) : undefined,
      publishedDate: typeof item.publishedDate === "string" ? item.publishedDate.slice(0, 32) : undefined,
    });
  }
  return results;
}

function searchFailed(what: string): GatewayError {
  return new GatewayError("upstream", `web plugin: the search provider ${what}; no model was called`, {
    code: "web_search_failed",
    metadata: { provider_name: "web_search" },
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
