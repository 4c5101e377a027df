import { type UrlCitation, urlCitationsIn } from "../url-citation.js";

type Json = Record<string, unknown>;

/**
 * An answer's text as Anthropic text blocks with its web citations where Anthropic puts them: the text
 * is cut at each cited span, and the span's block carries `citations` of type
 * `web_search_result_location` (docs.claude.com "Web search tool": url, title, cited_text,
 * encrypted_index). The gateway has no index of Anthropic's to give back, so `encrypted_index` is empty;
 * the cited text is the span itself. A citation overlapping an earlier span joins that span's block.
 */
export function citedTextBlocks(text: string, annotations: unknown): Json[] {
  const citations = urlCitationsIn(annotations, text.length);
  if (citations.length === 0) return [{ type: "text", text }];
  const blocks: Json[] = [];
  let at = 0;
  let open: { end: number; citations: Json[] } | undefined;
  for (const citation of citations) {
    const { start_index: start, end_index: end } = citation.url_citation;
    if (open !== undefined && start < open.end) {
      open.citations.push(location(citation, text));
      continue;
    }
    if (start > at) blocks.push({ type: "text", text: text.slice(at, start) });
    open = { end, citations: [location(citation, text)] };
    blocks.push({ type: "text", text: text.slice(start, end), citations: open.citations });
    at = end;
  }
  if (at < text.length) blocks.push({ type: "text", text: text.slice(at) });
  return blocks;
}

function location(citation: UrlCitation, text: string): Json {
  const { url, title, start_index: start, end_index: end } = citation.url_citation;
  return {
    type: "web_search_result_location",
    url,
    title,
    cited_text: text.slice(start, end),
    encrypted_index: "",
  };
}

/** The text's web citations as `web_search_result_location`s, in text order (the streamed form's). */
export function citationLocations(text: string, annotations: unknown): Json[] {
  return urlCitationsIn(annotations, text.length).map((citation) => location(citation, text));
}
