import { isRecord } from "../core/content.js";
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
