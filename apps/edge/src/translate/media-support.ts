import type { ChatRequest } from "../canonical/chat-request.js";
import {
  audioFormatOf,
  audioMimeType,
  describePiece,
  type MediaPiece,
  mediaPiece,
} from "./openai/media-parts.js";
import type { TargetFormat } from "./target-fields.js";

/** How a target format takes a media piece: as it is, after the edge fetches its URL, or not at all. */
export type MediaSupport = { take: true } | { fetch: readonly string[] } | { refuse: string };

const TAKE: MediaSupport = { take: true };
/** Anthropic's image types (docs.claude.com, "Vision": JPEG, PNG, GIF, WebP); Converse takes the same four. */
export const ANTHROPIC_IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;
/** OpenAI's image types (platform.openai.com "Images and vision", image input requirements; GIF non-animated). */
const OPENAI_IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
/** Gemini's image types (ai.google.dev, "Image understanding": PNG, JPEG, WEBP, HEIC, HEIF). */
const GEMINI_IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"] as const;
/**
 * Gemini's document types (ai.google.dev "Document understanding"; Vertex "Document understanding" lists
 * the same text types): PDF and text formats.
 */
const GEMINI_DOCUMENT_TYPES = [
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
] as const;
/** Documents the gateway translates: PDF everywhere, plain text where the target has a text document. */
const DOCUMENT_TYPES = ["application/pdf", "text/plain"] as const;

const FILE_ID =
  "a file_id names a file in OpenAI's own storage, which no other provider can read; send file.file_data";
const NO_AUDIO: Readonly<Record<string, string>> = {
  anthropic: "Anthropic's Messages API takes no audio input",
  bedrock: "Bedrock's Converse API takes no audio input",
};

/** Whether `format` takes `piece` (the rows of the field table's media section). */
export function mediaSupport(piece: MediaPiece, format: TargetFormat): MediaSupport {
  if (piece.kind === "file-id") return format === "openai" ? TAKE : { refuse: FILE_ID };
  if (piece.kind === "audio") return audioSupport(piece.format, format);
  switch (format) {
    case "openai":
      // OpenAI's chat API takes `file_data` as base64 only; an image URL it fetches itself.
      if (piece.kind === "image") return imageType(piece.mediaType, OPENAI_IMAGE_TYPES, "OpenAI");
      return piece.kind === "file-url" ? { fetch: DOCUMENT_TYPES } : TAKE;
    case "anthropic":
      return anthropicSupport(piece);
    case "gemini":
      return geminiSupport(piece);
    case "bedrock":
      return bedrockSupport(piece);
  }
}

function audioSupport(audioFormat: string, format: TargetFormat): MediaSupport {
  if (format === "openai") return TAKE;
  if (format === "gemini")
    return audioMimeType(audioFormat)
      ? TAKE
      : { refuse: `Gemini takes wav, mp3, aiff, aac, ogg or flac audio, not ${audioFormat}` };
  return { refuse: NO_AUDIO[format] ?? "the target takes no audio input" };
}

function anthropicSupport(piece: MediaPiece): MediaSupport {
  // Anthropic fetches image and PDF URLs itself (url sources).
  if (piece.kind === "image-url" || piece.kind === "file-url") return TAKE;
  if (piece.kind === "image") return imageType(piece.mediaType, ANTHROPIC_IMAGE_TYPES, "Anthropic");
  if (piece.kind === "file")
    return [...DOCUMENT_TYPES, ...ANTHROPIC_IMAGE_TYPES].includes(piece.mediaType as never)
      ? TAKE
      : { refuse: `Anthropic's documents are PDF or plain text, not ${piece.mediaType}` };
  return TAKE;
}

function geminiSupport(piece: MediaPiece): MediaSupport {
  // Gemini reads inline bytes (inlineData); a URL outside its own storage has to be fetched.
  if (piece.kind === "image-url") return { fetch: GEMINI_IMAGE_TYPES };
  if (piece.kind === "file-url") return { fetch: DOCUMENT_TYPES };
  if (piece.kind === "image") return imageType(piece.mediaType, GEMINI_IMAGE_TYPES, "Gemini");
  if (piece.kind === "file") {
    const type = piece.mediaType.toLowerCase();
    const known = [...GEMINI_IMAGE_TYPES, ...GEMINI_DOCUMENT_TYPES].includes(type as never);
    if (!known && audioFormatOf(type) === undefined)
      return { refuse: `Gemini takes images, PDFs, text documents and audio inline, not ${piece.mediaType}` };
  }
  return TAKE;
}

function bedrockSupport(piece: MediaPiece): MediaSupport {
  // Bedrock takes bytes only, on Converse and on Claude's InvokeModel body alike.
  if (piece.kind === "image-url") return { fetch: ANTHROPIC_IMAGE_TYPES };
  if (piece.kind === "file-url") return { fetch: DOCUMENT_TYPES };
  if (piece.kind === "image") return imageType(piece.mediaType, ANTHROPIC_IMAGE_TYPES, "Bedrock");
  if (piece.kind === "file" && !DOCUMENT_TYPES.includes(piece.mediaType as never))
    return { refuse: `Bedrock's documents are PDF or plain text here, not ${piece.mediaType}` };
  return TAKE;
}

function imageType(mediaType: string, types: readonly string[], name: string): MediaSupport {
  return types.includes(mediaType)
    ? TAKE
    : { refuse: `${name} takes ${types.map((type) => type.slice(6)).join(", ")} images, not ${mediaType}` };
}

type MediaParts = readonly { piece: MediaPiece; path: string }[];

/**
 * Each request's media parts, or the refusal its first malformed part raised: the planner asks for them
 * once per provider format and once for the modalities, and reading a part checks its whole base64
 * payload (megabytes for a PDF), so it is done once per request.
 */
const partsOf = new WeakMap<ChatRequest, MediaParts | { refused: unknown }>();

/** Every media part of the request's messages, with its path. */
export function mediaParts(request: ChatRequest): MediaParts {
  let known = partsOf.get(request);
  if (known === undefined) {
    try {
      known = readMediaParts(request);
    } catch (error) {
      known = { refused: error };
    }
    partsOf.set(request, known);
  }
  if ("refused" in known) throw known.refused;
  return known;
}

function readMediaParts(request: ChatRequest): MediaParts {
  const found: { piece: MediaPiece; path: string }[] = [];
  for (const [index, message] of request.messages.entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const [at, part] of message.content.entries()) {
      const path = `messages[${index}].content[${at}]`;
      const piece = mediaPiece(part, path);
      if (piece) found.push({ piece, path });
    }
  }
  return found;
}

/**
 * Why `format` cannot take the request's media, naming the first part it refuses, or undefined: the
 * planner leaves such an endpoint out before admission. A URL the target needs as bytes counts as
 * taken only when this gateway fetches media (`canFetch`).
 */
export function mediaRefusal(
  request: ChatRequest,
  format: TargetFormat,
  canFetch: boolean,
): string | undefined {
  for (const { piece, path } of mediaParts(request)) {
    const support = mediaSupport(piece, format);
    const what = describePiece(piece, path);
    if ("refuse" in support) return `${what} cannot be sent to this model: ${support.refuse}`;
    if ("fetch" in support && !canFetch)
      return `${what} cannot be sent to this model: the ${format} format needs the bytes and fetching media URLs is not enabled on this gateway; send it as a base64 data: URL`;
  }
  return undefined;
}
