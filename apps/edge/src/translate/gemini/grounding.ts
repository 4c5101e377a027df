import { type UrlCitation, urlCitation } from "../url-citation.js";

type Json = Record<string, unknown>;

/**
 * Gemini's Google Search grounding (ai.google.dev "Grounding with Google Search"; the GroundingMetadata
 * reference): a candidate's `groundingMetadata` has `webSearchQueries`, `groundingChunks[].web {uri,
 * title}` and `groundingSupports[] {segment {startIndex, endIndex, text}, groundingChunkIndices}`, the
 * segment's indices in UTF-8 bytes of the answer's text. Each support becomes one `url_citation` per
 * chunk it cites, over the segment's span in JavaScript string indices.
 */
export function groundingCitations(text: string, metadata: unknown): UrlCitation[] {
  if (typeof metadata !== "object" || metadata === null) return [];
  const grounding = metadata as Json;
  const chunks = Array.isArray(grounding.groundingChunks) ? (grounding.groundingChunks as Json[]) : [];
  const supports = Array.isArray(grounding.groundingSupports) ? (grounding.groundingSupports as Json[]) : [];
  const annotations: UrlCitation[] = [];
  for (const support of supports) {
    const span = segmentSpan(text, support.segment as Json | undefined);
    if (span === undefined || !Array.isArray(support.groundingChunkIndices)) continue;
    for (const index of support.groundingChunkIndices) {
      const web = (typeof index === "number" ? chunks[index]?.web : undefined) as Json | undefined;
      if (typeof web?.uri !== "string") continue;
      const title = typeof web.title === "string" && web.title !== "" ? web.title : web.uri;
      annotations.push(urlCitation(web.uri, title, span.start, span.end));
    }
  }
  return annotations;
}

/**
 * The searches the candidate's grounding ran: the distinct non-empty queries Gemini reports (Google's
 * grounding docs: "for billing purposes, we ignore the empty web search queries when counting unique
 * queries"), one if it only lists sources.
 */
export function groundedSearches(metadata: unknown): number {
  if (typeof metadata !== "object" || metadata === null) return 0;
  const grounding = metadata as Json;
  const listed: unknown[] = Array.isArray(grounding.webSearchQueries) ? grounding.webSearchQueries : [];
  const queries = new Set(listed.filter((query) => typeof query === "string" && query.trim() !== "")).size;
  const chunks = Array.isArray(grounding.groundingChunks) ? grounding.groundingChunks.length : 0;
  return queries > 0 ? queries : chunks > 0 ? 1 : 0;
}

function segmentSpan(text: string, segment: Json | undefined): { start: number; end: number } | undefined {
  if (segment === undefined || typeof segment.endIndex !== "number") return undefined;
  const bytes = Buffer.from(text, "utf8");
  const startByte = typeof segment.startIndex === "number" ? segment.startIndex : 0;
  const endByte = Math.min(segment.endIndex, bytes.length);
  if (startByte < 0 || startByte >= endByte) return undefined;
  const start = bytes.subarray(0, startByte).toString("utf8").length;
  const end = start + bytes.subarray(startByte, endByte).toString("utf8").length;
  return { start, end };
}
