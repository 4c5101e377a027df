import { isRecord } from "../core/content.js";
import type { ProviderError } from "../core/server.js";
import { validation } from "./errors.js";

// Converse's media rules (API reference, Message.content): up to 20 images of at most 3.75 MB each, up
// to five documents of at most 4.5 MB each, a document needs a text block beside it, and images and
// documents go in user turns only. DocumentBlock names are unique in a request and allow letters, digits, single spaces, hyphens,
// parentheses and square brackets. Sizes are of the bytes (the JSON carries them base64). The
// ValidationException wording is the fake's own where AWS publishes none.
const MAX_IMAGES = 20;
const MAX_IMAGE_BYTES = 3.75 * 1024 * 1024;
const MAX_DOCUMENTS = 5;
const MAX_DOCUMENT_BYTES = 4.5 * 1024 * 1024;
const DOCUMENT_NAME = /^(?!.* {2})[A-Za-z0-9\-()[\] ]+$/;
const DOCUMENT_FORMATS = ["pdf", "csv", "doc", "docx", "xls", "xlsx", "html", "txt", "md"];

const bytesOf = (source: unknown): number => {
  const data = isRecord(source) ? source.bytes : undefined;
  return typeof data === "string" ? Math.floor((data.replace(/=+$/, "").length * 3) / 4) : 0;
};

/** The first media rule a Converse body breaks, as its ValidationException; undefined when none. */
export function checkConverseMedia(messages: readonly unknown[]): ProviderError | undefined {
  let images = 0;
  let documents = 0;
  const names = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || !Array.isArray(message.content)) continue;
    const blocks = message.content.filter(isRecord);
    const hasText = blocks.some((block) => typeof block.text === "string");
    for (const block of blocks) {
      const media = isRecord(block.image) ? "image" : isRecord(block.document) ? "document" : undefined;
      if (media === undefined) continue;
      if (message.role !== "user")
        return validation(`messages.${index}: ${media} content is only allowed in user messages.`);
      if (media === "image") {
        images += 1;
        if (bytesOf((block.image as Record<string, unknown>).source) > MAX_IMAGE_BYTES)
          return validation(`messages.${index}: an image exceeds the maximum size of 3.75 MB.`);
        continue;
      }
      documents += 1;
      const document = block.document as Record<string, unknown>;
      if (!DOCUMENT_FORMATS.includes(String(document.format)))
        return validation(`messages.${index}: document format ${String(document.format)} is not supported.`);
      if (typeof document.name !== "string" || !DOCUMENT_NAME.test(document.name))
        return validation(
          `messages.${index}: the document name can only contain alphanumeric characters, whitespace characters (no more than one in a row), hyphens, parentheses, and square brackets.`,
        );
      if (names.has(document.name))
        return validation(`messages.${index}: document names must be unique; ${document.name} is repeated.`);
      names.add(document.name);
      if (bytesOf(document.source) > MAX_DOCUMENT_BYTES)
        return validation(`messages.${index}: a document exceeds the maximum size of 4.5 MB.`);
      if (!hasText)
        return validation(`messages.${index}: a message with a document must also contain a text block.`);
    }
  }
  if (images > MAX_IMAGES) return validation(`Too many images: at most ${MAX_IMAGES} per request.`);
  if (documents > MAX_DOCUMENTS)
    return validation(`Too many documents: at most ${MAX_DOCUMENTS} per request.`);
  return undefined;
}
