import type { CompletionWire } from "../canonical/wire.js";
import { type UrlCitation, urlCitation } from "../translate/url-citation.js";
import type { WebResult } from "./web-search.js";

/**
 * A citation for each result the answer's text cites, where it cites it: the markdown link
 * `[name](url)` the search prompt asks for, else the bare URL. Offsets are indices into the text
 * (JavaScript string indices, end exclusive). A result the answer does not mention is not cited.
 */
export function urlCitations(text: string, results: readonly WebResult[]): UrlCitation[] {
  const citations: UrlCitation[] = [];
  const seen = new Set<string>();
  for (const result of results) {
    if (seen.has(result.url)) continue;
    const span = citedSpan(text, result.url);
    if (span === undefined) continue;
    seen.add(result.url);
    citations.push(urlCitation(result.url, result.title, span.start, span.end, result.text));
  }
  return citations.sort((a, b) => a.url_citation.start_index - b.url_citation.start_index);
}

function citedSpan(text: string, url: string): { start: number; end: number } | undefined {
  const link = new RegExp(`\\[[^\\]\\n]*\\]\\(${escapeRegExp(url)}\\)`).exec(text);
  if (link) return { start: link.index, end: link.index + link[0].length };
  const at = text.indexOf(url);
  return at < 0 ? undefined : { start: at, end: at + url.length };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The completion with each choice's citations added to its message's `annotations` (kept: any the provider sent). */
export function withCitations(
  body: CompletionWire,
  results: readonly WebResult[] | undefined,
): CompletionWire {
  if (results === undefined || results.length === 0) return body;
  const choices = body.choices.map((choice) => {
    const message = choice.message;
    if (typeof message?.content !== "string") return choice;
    const citations = urlCitations(message.content, results);
    if (citations.length === 0) return choice;
    const sent = Array.isArray(message.annotations) ? message.annotations : [];
    return { ...choice, message: { ...message, annotations: [...sent, ...citations] } };
  });
  return { ...body, choices };
}
