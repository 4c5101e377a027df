import { mediaSupport } from "../media-support.js";
import { audioMimeType, describePiece, type MediaPiece } from "../openai/media-parts.js";
import { untranslatable } from "../untranslatable.js";

type Part = Record<string, unknown>;

/**
 * A media piece as a Gemini `inlineData` part (ai.google.dev, "Image understanding", "Document
 * understanding", "Audio understanding"): the caller's base64 as written, with its MIME type. A URL
 * reaches here only when the edge could not fetch it first (planning/inline-media-urls.ts): refused by name.
 */
export function geminiMediaPart(piece: MediaPiece, path: string): Part {
  const support = mediaSupport(piece, "gemini");
  const what = describePiece(piece, path);
  if ("refuse" in support) return untranslatable(what, support.refuse);
  switch (piece.kind) {
    case "image":
    case "file":
      return { inlineData: { mimeType: piece.mediaType, data: piece.data } };
    case "audio":
      return { inlineData: { mimeType: audioMimeType(piece.format), data: piece.data } };
    default:
      return untranslatable(what, "Gemini takes media inline; send it as a base64 data: URL");
  }
}
