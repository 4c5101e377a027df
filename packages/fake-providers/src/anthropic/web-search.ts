import { isRecord } from "../core/content.js";
import { randomId } from "../core/ids.js";
import type { ProviderError } from "../core/server.js";

// Anthropic's server-side web search tool as docs.claude.com "Web search tool" describes it (tool
// `{type: "web_search_20250305", name: "web_search", max_uses?, allowed_domains?, blocked_domains?,
// user_location?, cache_control?}`; the answer has a `server_tool_use` block with the query, a
// `web_search_tool_result` block with `web_search_result` entries, text blocks whose `citations` are
// `web_search_result_location`s, and `usage.server_tool_use.web_search_requests`). The fake runs one
// search per request and "finds" two pages named after the query.

export const WEB_SEARCH_TOOL = "web_search_20250305";
const TOOL_FIELDS = [
  "type",
  "name",
  "max_uses",
  "allowed_domains",
  "blocked_domains",
  "user_location",
  "cache_control",
];
/** The server tool types the API knows; any other `type` fails its tagged-union validation. */
const SERVER_TOOL_TYPES = [
  "custom",
  "bash_20250124",
  "code_execution_20250522",
  "text_editor_20250124",
  "text_editor_20250429",
  "text_editor_20250728",
  WEB_SEARCH_TOOL,
  "web_fetch_20250910",
];

export interface WebSearchTool {
  readonly maxUses: number | undefined;
}

/** A tool of a `type` the API does not know, or the web search tool in a shape it refuses: its 400. */
export function checkServerTool(tool: Record<string, unknown>, index: number): ProviderError | undefined {
  if (typeof tool.type !== "string" || !SERVER_TOOL_TYPES.includes(tool.type))
    return invalid(
      `tools.${index}: Input tag '${String(tool.type)}' found using 'type' does not match any of the expected tags: ${SERVER_TOOL_TYPES.map((type) => `'${type}'`).join(", ")}`,
    );
  if (tool.type !== WEB_SEARCH_TOOL) return undefined;
  const at = `tools.${index}.${WEB_SEARCH_TOOL}`;
  for (const field of Object.keys(tool))
    if (!TOOL_FIELDS.includes(field)) return invalid(`${at}.${field}: Extra inputs are not permitted`);
  if (tool.name !== "web_search") return invalid(`${at}.name: Input should be 'web_search'`);
  if (tool.max_uses !== undefined && (!Number.isInteger(tool.max_uses) || (tool.max_uses as number) < 1))
    return invalid(`${at}.max_uses: Input should be greater than 0`);
  if (tool.allowed_domains !== undefined && tool.blocked_domains !== undefined)
    return invalid(`${at}: Only one of allowed_domains or blocked_domains can be specified`);
  return undefined;
}

/** The request's web search tool, if it has one. */
export function webSearchToolOf(tools: unknown): WebSearchTool | undefined {
  if (!Array.isArray(tools)) return undefined;
  const tool = tools.find((entry) => isRecord(entry) && entry.type === WEB_SEARCH_TOOL);
  if (!isRecord(tool)) return undefined;
  return { maxUses: typeof tool.max_uses === "number" ? tool.max_uses : undefined };
}

export interface WebPage {
  readonly url: string;
  readonly title: string;
}

/** The pages the fake search finds for a query: two, named after it (deterministic, so tests can cite them). */
export function searchPages(query: string): WebPage[] {
  const slug =
    query
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 40) || "query";
  return [1, 2].map((n) => ({
    url: `https://search-${n}.example.com/${slug}`,
    title: `Page ${n} about ${query.slice(0, 60)}`,
  }));
}

export type SearchBlock =
  | {
      readonly type: "server_tool_use";
      readonly id: string;
      readonly name: "web_search";
      readonly input: { query: string };
    }
  | {
      readonly type: "web_search_tool_result";
      readonly tool_use_id: string;
      readonly content: readonly Record<string, unknown>[];
    };

/** The blocks of one search: the call with its query, then its results. */
export function searchBlocks(query: string, pages: readonly WebPage[]): SearchBlock[] {
  const id = randomId("srvtoolu_01", 22);
  return [
    { type: "server_tool_use", id, name: "web_search", input: { query } },
    {
      type: "web_search_tool_result",
      tool_use_id: id,
      content: pages.map((page) => ({
        type: "web_search_result",
        url: page.url,
        title: page.title,
        encrypted_content: Buffer.from(page.url).toString("base64"),
        page_age: "April 30, 2026",
      })),
    },
  ];
}

/** A text block's citation of a page (what the streamed `citations_delta` carries too). */
export function pageCitation(page: WebPage, citedText: string): Record<string, unknown> {
  return {
    type: "web_search_result_location",
    url: page.url,
    title: page.title,
    cited_text: citedText.slice(0, 150),
    encrypted_index: Buffer.from(`${page.url}#0`).toString("base64"),
  };
}

function invalid(message: string): ProviderError {
  return { status: 400, message };
}
