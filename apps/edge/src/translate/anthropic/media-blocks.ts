import { mediaSupport } from "../media-support.js";
import { base64ToUtf8, describePiece, type MediaPiece } from "../openai/media-parts.js";
import { untranslatable } from "../untranslatable.js";

type Block = Record<string, unknown>;

/**
 * A media piece as an Anthropic content block (docs.claude.com, "Vision" and "PDF support"): images
 * and PDFs as base64 or url sources, plain text as a text document source; a file's name becomes the
 * document's `title`. Base64 is passed as written. What Anthropic cannot take (audio, an OpenAI
 * file_id, other document types) is refused naming the part.
 */
export function anthropicMediaBlock(piece: MediaPiece, path: string): Block {
  const support = mediaSupport(piece, "anthropic");
  if ("refuse" in support) return untranslatable(describePiece(piece, path), support.refuse);
  switch (piece.kind) {
    case "image":
      return { type: "image", source: { type: "base64", media_type: piece.mediaType, data: piece.data } };
    case "image-url":
      return { type: "image", source: { type: "url", url: piece.url } };
    case "file":
      return fileBlock(piece);
    case "file-url":
      return { type: "document", source: { type: "url", url: piece.url }, ...title(piece.filename) };
    default:
      return untranslatable(describePiece(piece, path), "Anthropic has no block for it");
  }
}

function fileBlock(piece: Extract<MediaPiece, { kind: "file" }>): Block {
  if (piece.mediaType.startsWith("image/"))
    return { type: "image", source: { type: "base64", media_type: piece.mediaType, data: piece.data } };
  const source =
    piece.mediaType === "text/plain"
      ? { type: "text", media_type: "text/plain", data: base64ToUtf8(piece.data) }
      : { type: "base64", media_type: piece.mediaType, data: piece.data };
  return { type: "document", source, ...title(piece.filename) };
}

function title(filename: string | undefined): Block {
  return filename ? { title: filename } : {};
}
