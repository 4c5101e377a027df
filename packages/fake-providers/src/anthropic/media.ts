import { isRecord } from "../core/content.js";
import type { ProviderError } from "../core/server.js";

// Anthropic's media limits (platform.claude.com/docs, "Vision" general limits and "PDF support"): images
// are JPEG, PNG, GIF or WebP, at most 5 MB each as sent (base64), at most 100 per API request; documents
// are PDFs (base64 or url sources) or plain text (text sources). Audio has no block at all (fields.ts
// refuses unknown block types). Messages follow the API's validation style (pydantic paths).
const IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"];
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const MAX_IMAGES = 100;

const invalid = (message: string): ProviderError => ({ status: 400, message });

/** The first media block Anthropic would refuse, as its 400; undefined when all pass. */
export function checkMedia(messages: readonly unknown[]): ProviderError | undefined {
  let images = 0;
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || !Array.isArray(message.content)) continue;
    for (const [at, block] of message.content.entries()) {
      if (!isRecord(block) || !isRecord(block.source)) continue;
      const where = `messages.${index}.content.${at}`;
      if (block.type === "image") {
        images += 1;
        const refused = checkImage(block.source, where);
        if (refused) return refused;
      } else if (block.type === "document") {
        const refused = checkDocument(block.source, where);
        if (refused) return refused;
      }
    }
  }
  if (images > MAX_IMAGES) return invalid(`messages: Too many images in request (${images} > ${MAX_IMAGES})`);
  return undefined;
}

function checkImage(source: Record<string, unknown>, where: string): ProviderError | undefined {
  if (source.type === "url")
    return typeof source.url === "string"
      ? undefined
      : invalid(`${where}.image.source.url.url: Field required`);
  if (source.type !== "base64")
    return invalid(
      `${where}.image.source: Input tag '${String(source.type)}' found using 'type' does not match any of the expected tags: 'base64', 'url', 'file'`,
    );
  if (!IMAGE_TYPES.includes(String(source.media_type)))
    return invalid(
      `${where}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`,
    );
  const size = typeof source.data === "string" ? source.data.length : 0;
  if (size > MAX_IMAGE_BYTES)
    return invalid(
      `${where}.image.source.base64: image exceeds 5 MB maximum: ${size} bytes > ${MAX_IMAGE_BYTES} bytes`,
    );
  return undefined;
}

function checkDocument(source: Record<string, unknown>, where: string): ProviderError | undefined {
  if (source.type === "base64" && source.media_type !== "application/pdf")
    return invalid(`${where}.document.source.base64.media_type: Input should be 'application/pdf'`);
  if (source.type === "text" && source.media_type !== "text/plain")
    return invalid(`${where}.document.source.text.media_type: Input should be 'text/plain'`);
  if (source.type === "url" && typeof source.url !== "string")
    return invalid(`${where}.document.source.url.url: Field required`);
  return undefined;
}
