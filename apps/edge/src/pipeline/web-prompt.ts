import type { ChatMessage, ChatRequest } from "../canonical/chat-request.js";
import type { WebResult } from "./web-search.js";

/**
 * OpenRouter's default web search prompt (its "Web Search" doc and the announcement "Introducing Web
 * Search via the API"): the date, the instruction to use the results and to cite them as markdown links
 * named by the source's domain. `{date}` is today's date (UTC).
 */
export const DEFAULT_SEARCH_PROMPT =
  "A web search was conducted on {date}. Incorporate the following web search results into your response.\n\n" +
  "IMPORTANT: Cite them using markdown links named using the domain of the source.\n" +
  "Example: [nytimes.com](https://nytimes.com/some-page).";

/** The text of the last user message: what the search looks for (OpenRouter passes the prompt to Exa). */
export function searchQuery(request: ChatRequest): string | undefined {
  const last = request.messages.findLast((message) => message.role === "user");
  if (last === undefined) return undefined;
  const text =
    typeof last.content === "string"
      ? last.content
      : (last.content ?? []).flatMap((part) => (typeof part.text === "string" ? [part.text] : [])).join("\n");
  return text.trim() === "" ? undefined : text.trim();
}

/**
 * The request with the results before its last user message, as a system message (OpenRouter: "The
 * plugin injects this as a system message before the user message"): the search prompt, then each result
 * as a markdown link to its URL with its date and text.
 */
export function withSearchResults(
  request: ChatRequest,
  results: readonly WebResult[],
  searchPrompt: string | undefined,
  now: number,
): ChatRequest {
  const date = new Date(now).toISOString().slice(0, 10);
  const intro = (searchPrompt ?? DEFAULT_SEARCH_PROMPT).replaceAll("{date}", date);
  const listed = results.map((result, index) => {
    const published = result.publishedDate ? ` (published ${result.publishedDate.slice(0, 10)})` : "";
    const text = result.text ? `\n${result.text}` : "";
    return `[${index + 1}] [${result.title}](${result.url})${published}${text}`;
  });
  const system: ChatMessage = { role: "system", content: [intro, ...listed].join("\n\n") };
  const at = request.messages.findLastIndex((message) => message.role === "user");
  const messages = [...request.messages];
  messages.splice(at < 0 ? messages.length : at, 0, system);
  return { ...request, messages };
}
