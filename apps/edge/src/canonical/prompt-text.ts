import type { ChatRequest } from "./chat-request.js";

/** The countable parts of a prompt, whatever surface it came in on. */
export interface PromptText {
  texts: string[];
  messageCount: number;
  imageCount: number;
  /** Decoded bytes of the `input_audio` parts (for the hold's audio estimate); absent = none. */
  audioBytes?: number;
  /** `file` parts (PDFs and other documents the model reads natively); absent = none. */
  fileCount?: number;
}

/** Collects every piece of text the model will read: message content, names, tool calls and tool schemas. */
export function promptText(request: ChatRequest): PromptText {
  const texts: string[] = [];
  let imageCount = 0;
  let audioBytes = 0;
  let fileCount = 0;
  for (const message of request.messages) {
    if (typeof message.name === "string") texts.push(message.name);
    if (typeof message.content === "string") texts.push(message.content);
    else if (Array.isArray(message.content)) {
      for (const part of message.content) {
        if (typeof part.text === "string") texts.push(part.text);
        else if (typeof part.refusal === "string") texts.push(part.refusal);
        else if (part.type === "image_url" || part.type === "input_image") imageCount++;
        else if (part.type === "input_audio") audioBytes += base64Bytes(part.input_audio);
        else if (part.type === "file") fileCount++;
      }
    }
    if (message.tool_calls) texts.push(JSON.stringify(message.tool_calls));
  }
  if (request.tools) texts.push(JSON.stringify(request.tools));
  return {
    texts,
    messageCount: request.messages.length,
    imageCount,
    ...(audioBytes > 0 ? { audioBytes } : {}),
    ...(fileCount > 0 ? { fileCount } : {}),
  };
}

/** The decoded size of `input_audio.data` (base64: 3 bytes per 4 characters), without decoding it. */
function base64Bytes(audio: unknown): number {
  const data = (audio as { data?: unknown } | undefined)?.data;
  return typeof data === "string" ? Math.ceil((data.length * 3) / 4) : 0;
}

/**
 * English text averages about four UTF-8 bytes per token on the o200k/cl100k BPEs. The context check
 * wants a typical figure, not the spend hold's deliberately high one: over-estimating would leave out an
 * endpoint the prompt fits; under-estimating only lets the provider refuse it as before.
 */
const TYPICAL_BYTES_PER_TOKEN = 4;
const FRAMING_TOKENS_PER_MESSAGE = 3;
/** What OpenAI counts for a high-detail 1024x1024 image; the size is not known without decoding it. */
const IMAGE_TOKENS = 765;

/** A quick, typical estimate of the prompt's tokens (no tokenizer on the planning path). */
export function typicalPromptTokens(prompt: PromptText): number {
  let bytes = 0;
  for (const text of prompt.texts) bytes += Buffer.byteLength(text, "utf8");
  return (
    Math.ceil(bytes / TYPICAL_BYTES_PER_TOKEN) +
    prompt.messageCount * FRAMING_TOKENS_PER_MESSAGE +
    prompt.imageCount * IMAGE_TOKENS
  );
}
