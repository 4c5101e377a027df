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
