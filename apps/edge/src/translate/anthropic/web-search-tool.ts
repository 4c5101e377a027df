import type { NativeWebSearch } from "../../canonical/plugins.js";
import { untranslatable } from "../untranslatable.js";

/**
 * Anthropic's server-side web search tool (docs.claude.com "Web search tool"): `{type:
 * "web_search_20250305", name: "web_search", max_uses, allowed_domains | blocked_domains}`, added to the
 * request's tools. Anthropic runs the searches and bills each one (`usage.server_tool_use`); `max_uses`
 * bounds them, so the hold does too. It takes allowed or blocked domains, not both.
 */
export function withWebSearchTool(body: Record<string, unknown>, search: NativeWebSearch | undefined): void {
  if (search === undefined) return;
  if (search.includeDomains && search.excludeDomains)
    untranslatable(
      "web plugin include_domains with exclude_domains",
      "Anthropic's web search takes allowed or blocked domains, not both",
    );
  const tool: Record<string, unknown> = {
    type: "web_search_20250305",
    name: "web_search",
    max_uses: search.maxUses,
  };
  if (search.includeDomains) tool.allowed_domains = [...search.includeDomains];
  if (search.excludeDomains) tool.blocked_domains = [...search.excludeDomains];
  body.tools = [...(Array.isArray(body.tools) ? body.tools : []), tool];
}
