import { isRecord } from "../core/content.js";
import { audioSeconds, pdfPages, pngSize } from "../core/media-tokens.js";
import type { ProviderError } from "../core/server.js";

// Gemini's inline data limits (ai.google.dev "Image/Audio/Document understanding"; firebase.google.com
// "Input file requirements": "Only small files can be sent as inline data because the total request size
// limit is 20 MB"). Supported inline MIME types: PNG, JPEG, WebP, HEIC, HEIF images; WAV, MP3, AIFF, AAC,
// OGG, FLAC audio; PDF and text documents (plain, CSV, HTML, Markdown, XML, RTF, CSS, JS, Python); video
// is left out: the gateway never sends it.
const MAX_INLINE_BYTES = 20 * 1024 * 1024;
const SUPPORTED = new Set([
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/heic",
  "image/heif",
  "audio/wav",
  "audio/mp3",
  "audio/mpeg",
  "audio/aiff",
  "audio/aac",
  "audio/ogg",
  "audio/flac",
  "application/pdf",
  "text/plain",
  "text/csv",
  "text/html",
  "text/md",
  "text/xml",
  "text/rtf",
  "text/css",
  "text/javascript",
  "application/x-javascript",
  "text/x-python",
  "application/x-python",
]);

/** The first inline part Gemini would refuse, as its 400 INVALID_ARGUMENT; undefined when all pass. */
export function checkInlineData(contents: unknown): ProviderError | undefined {
  if (!Array.isArray(contents)) return undefined;
  let total = 0;
  for (const content of contents) {
    if (!isRecord(content) || !Array.isArray(content.parts)) continue;
    for (const part of content.parts) {
      if (!isRecord(part) || !isRecord(part.inlineData)) continue;
      const mimeType = String(part.inlineData.mimeType ?? "");
      if (!SUPPORTED.has(mimeType.toLowerCase()))
        return { status: 400, message: `Unsupported MIME type: ${mimeType}` };
      total += typeof part.inlineData.data === "string" ? part.inlineData.data.length : 0;
    }
  }
  if (total > MAX_INLINE_BYTES)
    return { status: 400, message: `Request payload size exceeds the limit: ${MAX_INLINE_BYTES} bytes.` };
  return undefined;
}

/** The prompt's media tokens by Gemini's modality names (IMAGE, AUDIO, DOCUMENT). */
export type ModalityTokens = Readonly<Record<"IMAGE" | "AUDIO" | "DOCUMENT", number>>;

/**
 * What Gemini counts for inline media, reported in `usageMetadata.promptTokensDetails` by modality
 * (ai.google.dev "Understand and count tokens"): an image with both sides at most 384 pixels is 258
 * tokens, a larger one 258 per 768x768 tile (an image the fake cannot size counts one tile); audio is
 * 32 tokens a second ("Audio understanding"); a document 258 tokens a page ("Document understanding").
 */
export function modalityTokens(contents: unknown): ModalityTokens {
  const counts = { IMAGE: 0, AUDIO: 0, DOCUMENT: 0 };
  if (!Array.isArray(contents)) return counts;
  for (const content of contents) {
    if (!isRecord(content) || !Array.isArray(content.parts)) continue;
    for (const part of content.parts) {
      if (!isRecord(part) || !isRecord(part.inlineData)) continue;
      const mimeType = String(part.inlineData.mimeType ?? "").toLowerCase();
      const data = typeof part.inlineData.data === "string" ? part.inlineData.data : "";
      if (mimeType.startsWith("image/")) counts.IMAGE += imageTokens(data);
      else if (mimeType.startsWith("audio/"))
        counts.AUDIO += Math.ceil(audioSeconds(data, mimeType.slice("audio/".length)) * 32);
      else if (mimeType === "application/pdf") counts.DOCUMENT += pdfPages(data) * 258;
    }
  }
  return counts;
}

function imageTokens(data: string): number {
  const size = pngSize(data);
  if (!size || (size.width <= 384 && size.height <= 384)) return 258;
  return Math.ceil(size.width / 768) * Math.ceil(size.height / 768) * 258;
}
