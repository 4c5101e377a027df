import { urlCitationsIn } from "../url-citation.js";

type Json = Record<string, unknown>;

/**
 * An answer's web citations as Gemini's `groundingMetadata` (ai.google.dev "Grounding with Google
 * Search"): each cited URL once in `groundingChunks` (`web {uri, title}`), each cited span a
 * `groundingSupports` entry whose `segment` is in UTF-8 bytes of the text, as Gemini's are, naming the
 * chunks it cites. Undefined when the answer cites nothing.
 */
export function groundingMetadataOf(text: string, annotations: unknown): Json | undefined {
  const citations = urlCitationsIn(annotations, text.length);
  if (citations.length === 0) return undefined;
  const chunks: Json[] = [];
  const chunkIndex = new Map<string, number>();
  const supports = new Map<string, { segment: Json; groundingChunkIndices: number[] }>();
  for (const { url_citation: cited } of citations) {
    let index = chunkIndex.get(cited.url);
    if (index === undefined) {
      index = chunks.length;
      chunkIndex.set(cited.url, index);
      chunks.push({ web: { uri: cited.url, title: cited.title } });
    }
    const key = `${cited.start_index}:${cited.end_index}`;
    const support = supports.get(key) ?? {
      segment: segment(text, cited.start_index, cited.end_index),
      groundingChunkIndices: [],
    };
    if (!support.groundingChunkIndices.includes(index)) support.groundingChunkIndices.push(index);
    supports.set(key, support);
  }
  return { groundingChunks: chunks, groundingSupports: [...supports.values()] };
}

function segment(text: string, start: number, end: number): Json {
  const startByte = Buffer.byteLength(text.slice(0, start), "utf8");
  const endByte = startByte + Buffer.byteLength(text.slice(start, end), "utf8");
  return {
    ...(startByte > 0 ? { startIndex: startByte } : {}),
    endIndex: endByte,
    text: text.slice(start, end),
  };
}
