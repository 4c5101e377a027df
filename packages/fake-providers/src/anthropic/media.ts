import { isRecord } from "../core/content.js";
import { pdfPages, pngSize } from "../core/media-tokens.js";
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

/**
 * Input tokens of the image and document blocks, counted inside `input_tokens` as Anthropic reports them
 * (no breakdown). Images (docs.claude.com "Vision", calculate image costs): about width x height / 750
 * tokens once fit within 1568 pixels a side and ~1.15 megapixels, so at most ~1,600; an image the fake
 * cannot size (a URL, not a PNG) counts that most. PDFs ("PDF support", estimate your costs): each page
 * is its text and an image of it, 1,500-3,000 tokens a page of text; the fake counts 1,600 (the page
 * image) plus 1,500 a page. A plain-text document counts as its text.
 */
export function mediaInputTokens(messages: unknown): number {
  if (!Array.isArray(messages)) return 0;
  let tokens = 0;
  for (const message of messages) {
    if (!isRecord(message) || !Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (!isRecord(block) || !isRecord(block.source)) continue;
      const data = typeof block.source.data === "string" ? block.source.data : undefined;
      if (block.type === "image") tokens += imageTokens(block.source.type === "base64" ? data : undefined);
      else if (block.type === "document" && block.source.type === "base64" && data)
        tokens += pdfPages(data) * (1_600 + 1_500);
      else if (block.type === "document" && block.source.type === "text" && data)
        tokens += Math.ceil(data.length / 4);
    }
  }
  return tokens;
}

function imageTokens(data: string | undefined): number {
  const size = data ? pngSize(data) : undefined;
  if (!size) return 1_600;
  const fit = Math.min(1, 1568 / Math.max(size.width, size.height));
  const pixels = size.width * fit * size.height * fit;
  return Math.ceil(Math.min(pixels, 1_150_000) / 750);
}
