import { type UrlCitation, urlCitation } from "../url-citation.js";

type Json = Record<string, unknown>;

/**
 * One of Anthropic's web search citations (docs.claude.com "Web search tool", "Citations"): a text block's
 * `citations` entry `{type: "web_search_result_location", url, title, cited_text, encrypted_index}` (also
 * streamed as a `citations_delta`) as OpenRouter's `url_citation` over the block's span of the message
 * text. Citations of other kinds (documents, search results) are not web sources and are left to the
 * Anthropic surface.
 */
export function webCitation(citation: unknown, start: number, end: number): UrlCitation | undefined {
  if (typeof citation !== "object" || citation === null) return undefined;
  const entry = citation as Json;
  if (entry.type !== "web_search_result_location" || typeof entry.url !== "string") return undefined;
  const title = typeof entry.title === "string" && entry.title !== "" ? entry.title : entry.url;
  const quoted = typeof entry.cited_text === "string" ? entry.cited_text : undefined;
  return urlCitation(entry.url, title, start, end, quoted);
}

/** The web citations of a message's text blocks, each over its block's span of the joined text. */
export function blockCitations(blocks: readonly Json[]): UrlCitation[] {
  const annotations: UrlCitation[] = [];
  let offset = 0;
  for (const block of blocks) {
    if (block.type !== "text" || typeof block.text !== "string") continue;
    const end = offset + block.text.length;
    if (Array.isArray(block.citations))
      for (const citation of block.citations) {
        const annotation = webCitation(citation, offset, end);
        if (annotation) annotations.push(annotation);
      }
    offset = end;
  }
  return annotations;
}
