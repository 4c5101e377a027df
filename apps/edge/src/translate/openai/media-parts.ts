import { untranslatable } from "../untranslatable.js";

/**
 * A media content part of the canonical (OpenAI chat) request in a provider-neutral form. The base64
 * text is carried as the caller wrote it, so a target that takes base64 gets the same bytes.
 */
export type MediaPiece =
  | { kind: "image"; mediaType: string; data: string }
  | { kind: "image-url"; url: string }
  /** A document (`file.file_data` as a data URL): PDF, or plain text from an Anthropic text source. */
  | { kind: "file"; mediaType: string; data: string; filename: string | undefined }
  /** `file.file_data` as an http(s) URL (OpenRouter's form; Anthropic's url document source). */
  | { kind: "file-url"; url: string; filename: string | undefined }
  /** A file in OpenAI's own storage: no other provider can read it. */
  | { kind: "file-id"; fileId: string }
  /** `input_audio`: base64 audio and its format (`wav`, `mp3`, …). */
  | { kind: "audio"; format: string; data: string };

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;
const HTTP_URL = /^https?:\/\//i;
/** A MIME type's shape (RFC 6838 type/subtype names); parameters are not part of a data: URL's type here. */
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
/** Standard base64 (RFC 4648 section 4), padded or not: what every provider decodes. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const NOT_A_URL = "expected a base64 data: URL or an http(s) URL";

/**
 * The type and payload of a base64 data: URL, or undefined when `url` is not one. A data: URL whose
 * type is not a MIME type or whose payload is not base64 is refused here, naming `field`: every
 * provider refuses it, so it is the caller's 400 before anything is sent (found by the hostile suite).
 */
function dataUrl(url: string, field: string): { mediaType: string; data: string } | undefined {
  const parts = DATA_URL.exec(url);
  if (!parts) return undefined;
  const [, mediaType = "", data = ""] = parts;
  if (!MIME_TYPE.test(mediaType))
    return untranslatable(field, `the data: URL's type ${JSON.stringify(mediaType)} is not a MIME type`);
  if (!BASE64.test(data)) return untranslatable(field, "the data: URL's payload is not base64");
  return { mediaType, data };
}

/** The media piece of a chat content part, or undefined when the part is not media. */
export function mediaPiece(
  part: Record<string, unknown> & { type: string },
  path: string,
): MediaPiece | undefined {
  if (part.type === "image_url") return imagePiece(part.image_url, path);
  if (part.type === "file") return filePiece(part.file, path);
  if (part.type === "input_audio") return audioPiece(part.input_audio, path);
  return undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function imagePiece(image: unknown, path: string): MediaPiece {
  const url = typeof image === "string" ? image : record(image)?.url;
  if (typeof url !== "string") return untranslatable(path, "image_url.url is missing");
  const field = `${path}.image_url.url`;
  const data = dataUrl(url, field);
  if (data) return { kind: "image", ...data };
  if (!HTTP_URL.test(url)) return untranslatable(field, NOT_A_URL);
  return { kind: "image-url", url };
}

function filePiece(file: unknown, path: string): MediaPiece {
  const fields = record(file);
  if (fields === undefined) return untranslatable(`${path}.file`, "expected an object");
  const filename = typeof fields.filename === "string" ? fields.filename : undefined;
  if (typeof fields.file_data === "string") {
    const data = dataUrl(fields.file_data, `${path}.file.file_data`);
    if (data) return { kind: "file", ...data, filename };
    if (HTTP_URL.test(fields.file_data)) return { kind: "file-url", url: fields.file_data, filename };
    return untranslatable(`${path}.file.file_data`, NOT_A_URL);
  }
  if (typeof fields.file_id === "string") return { kind: "file-id", fileId: fields.file_id };
  return untranslatable(`${path}.file`, "file_data or file_id is missing");
}

function audioPiece(audio: unknown, path: string): MediaPiece {
  const fields = record(audio);
  if (typeof fields?.data !== "string" || typeof fields.format !== "string")
    return untranslatable(`${path}.input_audio`, "data and format are required");
  if (!BASE64.test(fields.data)) return untranslatable(`${path}.input_audio.data`, "not base64");
  return { kind: "audio", format: fields.format, data: fields.data };
}

/** `input_audio.format` ↔ the MIME type Gemini's inlineData names (ai.google.dev, "Audio understanding"). */
const AUDIO_MIME: Readonly<Record<string, string>> = {
  wav: "audio/wav",
  mp3: "audio/mp3",
  aiff: "audio/aiff",
  aac: "audio/aac",
  ogg: "audio/ogg",
  flac: "audio/flac",
};

export function audioMimeType(format: string): string | undefined {
  return AUDIO_MIME[format.toLowerCase()];
}

/** An audio MIME type as `input_audio.format` (`audio/mpeg` is mp3 too). */
export function audioFormatOf(mimeType: string): string | undefined {
  const type = mimeType.toLowerCase();
  if (type === "audio/mpeg") return "mp3";
  return Object.entries(AUDIO_MIME).find(([, mime]) => mime === type)?.[0];
}

/** What a piece is, for a refusal: `messages[1].content[0] (file application/pdf)`. */
export function describePiece(piece: MediaPiece, path: string): string {
  switch (piece.kind) {
    case "image":
      return `${path} (image ${piece.mediaType})`;
    case "image-url":
      return `${path} (image URL)`;
    case "file":
      return `${path} (file ${piece.mediaType})`;
    case "file-url":
      return `${path} (file URL)`;
    case "file-id":
      return `${path} (file_id ${piece.fileId})`;
    case "audio":
      return `${path} (input_audio ${piece.format})`;
  }
}

/** Plain text carried base64 (an Anthropic text document source) and back. */
export function utf8ToBase64(text: string): string {
  return Buffer.from(text, "utf8").toString("base64");
}

export function base64ToUtf8(data: string): string {
  return Buffer.from(data, "base64").toString("utf8");
}
