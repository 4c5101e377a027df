/**
 * OpenRouter's citation of a web source on an assistant message (its "Web Search" doc, "Parsing web
 * search results"), the shape every provider's own citations are translated to on the chat surface.
 * Offsets are JavaScript string indices into the message's text, end exclusive.
 */
export interface UrlCitation {
  type: "url_citation";
  url_citation: { url: string; title: string; content?: string; start_index: number; end_index: number };
}

export function urlCitation(
  url: string,
  title: string,
  start: number,
  end: number,
  content?: string | undefined,
): UrlCitation {
  return {
    type: "url_citation",
    url_citation: {
      url,
      title,
      ...(content === undefined ? {} : { content }),
      start_index: start,
      end_index: end,
    },
  };
}

/**
 * The well-formed `url_citation`s of a message's `annotations` over a text of `length` characters
 * (span inside the text, start before end), in text order: what another surface can render.
 */
export function urlCitationsIn(annotations: unknown, length: number): UrlCitation[] {
  if (!Array.isArray(annotations)) return [];
  const found: UrlCitation[] = [];
  for (const entry of annotations) {
    if (typeof entry !== "object" || entry === null) continue;
    const { type, url_citation: cited } = entry as { type?: unknown; url_citation?: Record<string, unknown> };
    if (type !== "url_citation" || typeof cited !== "object" || cited === null) continue;
    const { url, title, content, start_index: start, end_index: end } = cited;
    if (typeof url !== "string" || typeof start !== "number" || typeof end !== "number") continue;
    if (!(start >= 0 && start < end && end <= length)) continue;
    const name = typeof title === "string" && title !== "" ? title : url;
    found.push(urlCitation(url, name, start, end, typeof content === "string" ? content : undefined));
  }
  return found.sort((a, b) => a.url_citation.start_index - b.url_citation.start_index);
}
