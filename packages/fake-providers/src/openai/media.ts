import { isRecord } from "../core/content.js";
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
