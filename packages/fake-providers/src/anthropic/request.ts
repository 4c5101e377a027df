import { isRecord } from "../core/content.js";
import type { ProviderError } from "../core/server.js";
import { checkMessageFields } from "./fields.js";
import { checkMedia, mediaInputTokens } from "./media.js";
import { checkSamplingWithThinking, checkThinkingHistory, parseThinking } from "./thinking.js";
import { type WebSearchTool, webSearchToolOf } from "./web-search.js";

export interface AnthropicTool {
  readonly name: string;
  readonly inputSchema: unknown;
}

export interface MessagesRequest {
  readonly model: string;
  readonly maxTokens: number;
  readonly system: string;
  readonly messages: readonly { role: string; text: string; toolResult: string | null }[];
  readonly stream: boolean;
  readonly tools: readonly AnthropicTool[];
  /** "auto" | "any" | "none" | "tool:<name>" */
  readonly toolChoice: string;
  /** Extended thinking is on: the answer starts with a signed thinking block. */
  readonly thinking: boolean;
  /** What the image and document blocks count as input tokens (media.ts); Anthropic reports no breakdown. */
  readonly mediaTokens: number;
  /** The server-side web search tool, when the request offers it (web-search.ts). */
  readonly webSearch: WebSearchTool | undefined;
}

/**
 * The maximum output of the models the fakes are asked for (docs.claude.com, "Models overview": max
 * output per model); the API refuses a larger `max_tokens` with a 400. Models not listed are not checked.
 */
const OUTPUT_CAPS: Readonly<Record<string, number>> = {
  "claude-sonnet-4-20250514": 64_000,
  "claude-sonnet-4-5-20250929": 64_000,
  "claude-haiku-4-5-20251001": 64_000,
  "claude-opus-4-20250514": 32_000,
  "claude-3-5-haiku-20241022": 8_192,
};

/**
 * Validates like the API (`max_tokens` is required for messages, not for count_tokens; unknown fields are
 * refused, and `betas` from the `anthropic-beta` header add the fields of their betas).
 */
export function parseMessagesRequest(
  body: unknown,
  requireMaxTokens: boolean,
  betas: readonly string[] = [],
): MessagesRequest | ProviderError {
  if (!isRecord(body)) return invalid("body: Input should be a valid dictionary");
  const extra = checkMessageFields(body, betas, !requireMaxTokens);
  if (extra) return extra;
  if (typeof body.model !== "string" || body.model === "") return invalid("model: Field required");
  const maxTokens = body.max_tokens;
  if (requireMaxTokens) {
    if (maxTokens === undefined) return invalid("max_tokens: Field required");
    if (!Number.isInteger(maxTokens) || (maxTokens as number) < 1) {
      return invalid("max_tokens: Input should be greater than or equal to 1");
    }
    const cap = OUTPUT_CAPS[body.model];
    if (cap !== undefined && (maxTokens as number) > cap)
      return invalid(
        `max_tokens: ${maxTokens} > ${cap}, which is the maximum allowed number of output tokens for ${body.model}`,
      );
  }
  if (!Array.isArray(body.messages)) return invalid("messages: Field required");
  const messages = [];
  for (const [index, message] of body.messages.entries()) {
    if (!isRecord(message) || (message.role !== "user" && message.role !== "assistant")) {
      return invalid(`messages.${index}.role: Input should be 'user' or 'assistant'`);
    }
    messages.push({
      role: message.role,
      text: blocksText(message.content),
      toolResult: toolResultText(message.content),
    });
  }
  if (messages.length === 0) return invalid("messages: at least one message is required");
  const media = checkMedia(body.messages);
  if (media) return media;
  const thinking = parseThinking(body, typeof maxTokens === "number" ? maxTokens : Number.MAX_SAFE_INTEGER);
  if (typeof thinking !== "boolean") return thinking;
  const sampling = checkSamplingWithThinking(body, thinking);
  if (sampling) return sampling;
  const history = checkThinkingHistory(body.messages, thinking);
  if (history) return history;
  return {
    model: body.model,
    maxTokens: typeof maxTokens === "number" ? maxTokens : 0,
    system: blocksText(body.system),
    messages,
    stream: body.stream === true,
    tools: Array.isArray(body.tools) ? body.tools.flatMap(parseTool) : [],
    toolChoice: parseToolChoice(body.tool_choice),
    webSearch: webSearchToolOf(body.tools),
    thinking,
    mediaTokens: mediaInputTokens(body.messages),
  };
}

function invalid(message: string): ProviderError {
  return { status: 400, message };
}

function parseTool(tool: unknown): AnthropicTool[] {
  // Server tools run on the API's side: the model never "calls" them the way it calls the caller's tools.
  if (!isRecord(tool) || typeof tool.name !== "string") return [];
  if (tool.type !== undefined && tool.type !== "custom") return [];
  return [{ name: tool.name, inputSchema: tool.input_schema }];
}

function parseToolChoice(choice: unknown): string {
  if (!isRecord(choice) || typeof choice.type !== "string") return "auto";
  if (choice.type === "tool" && typeof choice.name === "string") return `tool:${choice.name}`;
  return choice.type;
}

/** Text of a string or of content blocks, including tool inputs and results (they count as input tokens). */
export function blocksText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (typeof block.text === "string") parts.push(block.text);
    else if (block.type === "tool_use") parts.push(JSON.stringify(block.input ?? {}));
    else if (block.type === "tool_result") parts.push(blocksText(block.content));
  }
  return parts.join("\n");
}

function toolResultText(content: unknown): string | null {
  if (!Array.isArray(content)) return null;
  const results = content.filter((b) => isRecord(b) && b.type === "tool_result");
  return results.length === 0
    ? null
    : results.map((b) => blocksText((b as Record<string, unknown>).content)).join("\n");
}
