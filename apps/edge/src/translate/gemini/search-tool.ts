import type { NativeWebSearch } from "../../canonical/plugins.js";
import { untranslatable } from "../untranslatable.js";

/**
 * Gemini's Google Search grounding (ai.google.dev "Grounding with Google Search"): the tool
 * `{googleSearch: {}}` beside the request's function declarations. Gemini picks its own queries and
 * takes no domain lists, so a web plugin with them is refused by name rather than searched unfiltered.
 */
export function withGoogleSearch(body: Record<string, unknown>, search: NativeWebSearch | undefined): void {
  if (search === undefined) return;
  if (search.includeDomains || search.excludeDomains)
    untranslatable(
      "web plugin include_domains/exclude_domains",
      "Gemini's Google Search grounding takes no domain lists",
    );
  body.tools = [...(Array.isArray(body.tools) ? body.tools : []), { googleSearch: {} }];
}
