import type { ChatMessage, ChatRequest } from "./chat-request.js";
import { promptText, typicalPromptTokens } from "./prompt-text.js";

// OpenRouter's `middle-out` transform (its "Message Transforms" doc): a prompt that does not fit the
// endpoint's context is compressed by removing, then truncating, content from the middle of the
// conversation, because models attend least to the middle. The first turn (usually the system prompt)
// and the last (the question being asked) are kept.

/** Where the cut text was: the model sees that something is missing rather than a silent seam. */
export const TRUNCATION_MARK = "\n…\n";

/**
 * The request compressed so its typical prompt estimate (the planner's, prompt-text.ts) is at most
 * `budget` tokens; the request itself when it already fits. A message that calls tools leaves with the
 * tool messages answering it, so no provider sees a tool result without its call.
 */
export function middleOut(request: ChatRequest, budget: number): ChatRequest {
  if (estimate(request) <= budget) return request;
  const units = turnUnits(request.messages).map((messages) => ({ messages, size: sizeOf(messages) }));
  const total = sizeOf([]);
  total.bytes += bytesOf(promptText({ ...request, messages: [] }).texts);
  for (const unit of units) add(total, unit.size, 1);
  // Remove whole turns from the middle, keeping the first and the last.
  while (units.length > 2 && tokensOf(total) > budget) {
    const [removed] = units.splice(Math.floor(units.length / 2), 1);
    if (removed) add(total, removed.size, -1);
  }
  let compressed: ChatRequest = { ...request, messages: units.flatMap((unit) => unit.messages) };
  // Then cut text from the middle of the longest text left (a few rounds: bytes are not characters).
  for (let round = 0; round < 3 && estimate(compressed) > budget; round++) {
    const cut = truncateLongest(compressed, estimate(compressed) - budget);
    if (cut === compressed) break;
    compressed = cut;
  }
  return compressed;
}

function estimate(request: ChatRequest): number {
  return typicalPromptTokens(promptText(request));
}

interface Size {
  bytes: number;
  messages: number;
  images: number;
}

function sizeOf(messages: ChatMessage[]): Size {
  const text = promptText({ model: "", messages });
  return { bytes: bytesOf(text.texts), messages: text.messageCount, images: text.imageCount };
}

function bytesOf(texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + Buffer.byteLength(text, "utf8"), 0);
}

function add(total: Size, size: Size, sign: 1 | -1): void {
  total.bytes += sign * size.bytes;
  total.messages += sign * size.messages;
  total.images += sign * size.images;
}

/** typicalPromptTokens' figure from running sums (its text term is the bytes over four). */
function tokensOf(size: Size): number {
  const framing = typicalPromptTokens({ texts: [], messageCount: size.messages, imageCount: size.images });
  return framing + Math.ceil(size.bytes / BYTES_PER_TOKEN);
}

/** Messages grouped into turns that must stay together: an assistant's tool calls with their results. */
function turnUnits(messages: readonly ChatMessage[]): ChatMessage[][] {
  const units: ChatMessage[][] = [];
  for (const message of messages) {
    const previous = units.at(-1);
    if (message.role === "tool" && previous?.some((item) => item.tool_calls !== undefined))
      previous.push(message);
    else units.push([message]);
  }
  return units;
}

// Tokens are estimated at four bytes each (prompt-text.ts); cut a little more for multi-byte text.
const BYTES_PER_TOKEN = 4;
const CUT_MARGIN = 1.1;

/**
 * Cuts the middle out of the longest text left (a message's string content or a text part) by
 * `overTokens`; when no text is long enough the request goes as it is and the provider judges it.
 */
function truncateLongest(request: ChatRequest, overTokens: number): ChatRequest {
  const cutChars = Math.ceil(overTokens * BYTES_PER_TOKEN * CUT_MARGIN) + TRUNCATION_MARK.length;
  let longest: { index: number; part: number | undefined; length: number } | undefined;
  for (const [index, message] of request.messages.entries()) {
    const content = message.content;
    if (typeof content === "string") {
      if (content.length > (longest?.length ?? 0))
        longest = { index, part: undefined, length: content.length };
    } else if (Array.isArray(content)) {
      for (const [part, item] of content.entries()) {
        const text = item.text;
        if (typeof text === "string" && text.length > (longest?.length ?? 0))
          longest = { index, part, length: text.length };
      }
    }
  }
  if (!longest || longest.length <= cutChars) return request;
  const target = longest;
  const messages = request.messages.map((message, index) => {
    if (index !== target.index) return message;
    const content = message.content;
    if (typeof content === "string") return { ...message, content: cutMiddle(content, cutChars) };
    if (!Array.isArray(content)) return message;
    return {
      ...message,
      content: content.map((item, part) =>
        part === target.part && typeof item.text === "string"
          ? { ...item, text: cutMiddle(item.text, cutChars) }
          : item,
      ),
    };
  });
  return { ...request, messages };
}

function cutMiddle(text: string, cutChars: number): string {
  const keep = text.length - cutChars;
  const head = Math.ceil(keep / 2);
  return `${text.slice(0, head)}${TRUNCATION_MARK}${text.slice(text.length - (keep - head))}`;
}
