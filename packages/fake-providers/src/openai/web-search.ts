import { isRecord } from "../core/content.js";
import type { ProviderError } from "../core/server.js";

// Web search on Chat Completions as platform.openai.com/docs/guides/tools-web-search ("Chat Completions"
// tab) describes it: only the search models (gpt-4o-search-preview, gpt-4o-mini-search-preview,
// gpt-5-search-api) take `web_search_options {search_context_size?: low|medium|high, user_location?}`;
// they always search, answer with markdown links to their sources, and list each as a message
// `annotations` entry `{type: "url_citation", url_citation: {start_index, end_index, url, title}}`.
// Other models refuse the option; the search models refuse the sampling parameters they do not take.

const SEARCH_MODEL = /search-(preview|api)/;
const CONTEXT_SIZES = ["low", "medium", "high"];
const UNSUPPORTED_ON_SEARCH = [
  "temperature",
  "top_p",
  "presence_penalty",
  "frequency_penalty",
  "logprobs",
  "n",
];

export function isSearchModel(model: string): boolean {
  return SEARCH_MODEL.test(model);
}

/** A request the API refuses for its web search shape, with the API's error; undefined when it is fine. */
export function checkWebSearch(body: Record<string, unknown>, model: string): ProviderError | undefined {
  const options = body.web_search_options;
  if (!isSearchModel(model)) {
    if (options === undefined) return undefined;
    return {
      status: 400,
      message: "Web search options not supported with this model.",
      param: "web_search_options",
    };
  }
  for (const field of UNSUPPORTED_ON_SEARCH)
    if (body[field] !== undefined)
      return {
        status: 400,
        message: `Model incompatible request argument supplied: ${field}`,
        param: field,
      };
  if (options === undefined) return undefined;
  if (!isRecord(options))
    return {
      status: 400,
      message: "Invalid type for 'web_search_options': expected an object.",
      param: "web_search_options",
    };
  const size = options.search_context_size;
  if (size !== undefined && !CONTEXT_SIZES.includes(String(size)))
    return {
      status: 400,
      message: `Invalid value: '${String(size)}'. Supported values are: 'low', 'medium', and 'high'.`,
      param: "web_search_options.search_context_size",
      code: "invalid_value",
    };
  return undefined;
}

export interface UrlAnnotation {
  readonly type: "url_citation";
  readonly url_citation: { start_index: number; end_index: number; url: string; title: string };
}

/** The answer with the source it "found" linked at the end, as the search models write it, and its annotation. */
export function searchedAnswer(
  text: string,
  query: string,
): { content: string; annotations: UrlAnnotation[] } {
  const slug =
    query
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 40) || "query";
  const url = `https://search-1.example.com/${slug}?utm_source=openai`;
  const link = `[search-1.example.com](${url})`;
  const content = `${text} (${link})`;
  const start = content.length - link.length - 1;
  return {
    content,
    annotations: [
      {
        type: "url_citation",
        url_citation: {
          start_index: start,
          end_index: start + link.length,
          url,
          title: `Page about ${query.slice(0, 60)}`,
        },
      },
    ],
  };
}
