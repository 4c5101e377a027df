import { isRecord } from "../core/content.js";
import { audioSeconds, dataUrlPayload, pdfPages, pngSize } from "../core/media-tokens.js";
import type { ProviderError } from "../core/server.js";

// OpenAI chat's media parts (platform.openai.com API reference, chat.completions "content parts";
// guides "Audio" and "File inputs"): `input_audio.format` is "wav" or "mp3"; `file.file_data` is a
// base64 data: URL (no URL is fetched for files); `image_url.url` is an http(s) URL or a data: URL.
// The messages follow OpenAI's invalid_value / invalid_request_error shapes with the part's param path.
const AUDIO_FORMATS = ["wav", "mp3"];

/** The first media part OpenAI would refuse, as its 400; undefined when all pass. */
export function checkMediaParts(messages: readonly unknown[]): ProviderError | undefined {
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || !Array.isArray(message.content)) continue;
    for (const [at, part] of message.content.entries()) {
      if (!isRecord(part)) continue;
      const refused = checkPart(part, `messages[${index}].content[${at}]`);
      if (refused) return refused;
    }
  }
  return undefined;
}

function checkPart(part: Record<string, unknown>, param: string): ProviderError | undefined {
  if (part.type === "input_audio" && isRecord(part.input_audio)) {
    const format = part.input_audio.format;
    if (!AUDIO_FORMATS.includes(String(format)))
      return {
        status: 400,
        message: `Invalid value: '${String(format)}'. Supported values are: 'wav' and 'mp3'.`,
        param: `${param}.input_audio.format`,
        code: "invalid_value",
      };
  }
  if (part.type === "file" && isRecord(part.file) && part.file.file_data !== undefined) {
    if (typeof part.file.file_data !== "string" || !/^data:[^;,]+;base64,/.test(part.file.file_data))
      return {
        status: 400,
        message: `Invalid file data: '${param}.file.file_data'. Expected a base64-encoded data URL with a MIME type (e.g. 'data:application/pdf;base64,...').`,
        param: `${param}.file.file_data`,
        code: "invalid_value",
      };
  }
  if (part.type === "image_url") {
    const url = isRecord(part.image_url) ? part.image_url.url : undefined;
    if (typeof url !== "string" || !/^(https?:\/\/|data:image\/)/i.test(url))
      return {
        status: 400,
        message: "Invalid image URL: expected an http(s) URL or a base64-encoded data URL.",
        param: `${param}.image_url.url`,
        code: "invalid_image_url",
      };
  }
  return undefined;
}

/** The prompt tokens OpenAI counts for the request's media: images and files without a breakdown, audio apart. */
export interface MediaTokens {
  readonly imageTokens: number;
  readonly audioTokens: number;
  readonly fileTokens: number;
}

/**
 * Images (platform.openai.com "Images and vision", calculating costs, GPT-4o): `detail: "low"` is 85
 * tokens; otherwise the image is fit in 2048x2048, its short side scaled to 768, and each 512-pixel tile
 * is 170 tokens on top of 85. An image the fake cannot size (a URL, not a PNG) is taken as 1024x1024.
 * Audio: OpenAI publishes no per-second rate; the fake counts 10 tokens a second (below Gemini's 32)
 * and reports them in `prompt_tokens_details.audio_tokens` as the API does. Files ("File inputs"): the
 * model reads each page's text and an image of it; the fake counts a 1024x1024 image (765) a page.
 */
export function mediaTokens(messages: readonly unknown[]): MediaTokens {
  let imageTokens = 0;
  let audioTokens = 0;
  let fileTokens = 0;
  for (const message of messages) {
    if (!isRecord(message) || !Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (!isRecord(part)) continue;
      if (part.type === "image_url" && isRecord(part.image_url)) imageTokens += imageCost(part.image_url);
      else if (part.type === "input_audio" && isRecord(part.input_audio)) {
        const { data, format } = part.input_audio;
        if (typeof data === "string") audioTokens += Math.ceil(audioSeconds(data, String(format)) * 10);
      } else if (part.type === "file" && isRecord(part.file)) {
        const payload = dataUrlPayload(part.file.file_data);
        if (payload?.mediaType === "application/pdf") fileTokens += pdfPages(payload.data) * 765;
      }
    }
  }
  return { imageTokens, audioTokens, fileTokens };
}

function imageCost(image: Record<string, unknown>): number {
  if (image.detail === "low") return 85;
  const payload = dataUrlPayload(image.url);
  const size = (payload && pngSize(payload.data)) ?? { width: 1024, height: 1024 };
  const fit = Math.min(1, 2048 / Math.max(size.width, size.height));
  const [w, h] = [size.width * fit, size.height * fit];
  const scale = Math.min(1, 768 / Math.min(w, h));
  return 85 + 170 * Math.ceil((w * scale) / 512) * Math.ceil((h * scale) / 512);
}
