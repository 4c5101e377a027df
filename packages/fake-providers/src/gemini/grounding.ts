import { isRecord } from "../core/content.js";
import { randomId } from "../core/ids.js";
import type { ProviderError } from "../core/server.js";
import { estimateTokens } from "../core/tokens.js";

// Grounding with Google Search as ai.google.dev/gemini-api/docs/google-search describes it: the request's
// tool `{googleSearch: {}}` (`google_search`), and on the answer's candidate `groundingMetadata` with
// `webSearchQueries`, `searchEntryPoint.renderedContent`, `groundingChunks[].web {uri, title}` (the uri a
// vertexaisearch.cloud.google.com redirect, the title the site's domain) and `groundingSupports[]
// {segment {startIndex, endIndex, text}, groundingChunkIndices}`, the segment's indices in UTF-8 bytes.
// The search's results are read by the model: `usageMetadata.toolUsePromptTokenCount` counts them.

/** Whether the request offers Google Search; the legacy retrieval tool is refused as the API does for 2.x+. */
export function googleSearchOf(tools: unknown): boolean | ProviderError {
  if (!Array.isArray(tools)) return false;
  if (
    tools.some(
      (tool) => isRecord(tool) && isRecord(tool.googleSearchRetrieval ?? tool.google_search_retrieval),
    )
  )
    return {
      status: 400,
      message: "google_search_retrieval is not supported; please use google_search field instead.",
    };
  return tools.some((tool) => isRecord(tool) && isRecord(tool.googleSearch ?? tool.google_search));
}

export interface Grounding {
  readonly metadata: Record<string, unknown>;
  /** The results the model read, as prompt tokens (`toolUsePromptTokenCount`). */
  readonly toolUsePromptTokens: number;
}

/** The grounding of an answer `text` to the question `query`: two sources, each supporting one half. */
export function groundingFor(query: string, text: string): Grounding {
  const domains = ["search-1.example.com", "search-2.example.com"];
  const chunks = domains.map((title) => ({
    web: { uri: `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${randomId("", 24)}`, title },
  }));
  const bytes = Buffer.from(text, "utf8");
  const middle = Buffer.from(text.slice(0, Math.floor(text.length / 2)), "utf8").length;
  const segment = (start: number, end: number) => ({
    ...(start > 0 ? { startIndex: start } : {}),
    endIndex: end,
    text: bytes.subarray(start, end).toString("utf8"),
  });
  const supports = [
    { segment: segment(0, middle), groundingChunkIndices: [0] },
    { segment: segment(middle, bytes.length), groundingChunkIndices: [0, 1] },
  ].filter((support) => support.segment.endIndex > (support.segment.startIndex ?? 0));
  return {
    metadata: {
      searchEntryPoint: { renderedContent: `<div class="container">${query.slice(0, 80)}</div>` },
      groundingChunks: chunks,
      groundingSupports: supports,
      webSearchQueries: [query.slice(0, 200)],
    },
    toolUsePromptTokens: estimateTokens(JSON.stringify(chunks)) + estimateTokens(query),
  };
}
