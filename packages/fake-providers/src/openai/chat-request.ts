import { isRecord } from "../core/content.js";
import type { ProviderError } from "../core/server.js";
import { CHAT_FIELDS, unrecognizedArguments } from "./fields.js";
import { checkMediaParts, type MediaTokens, mediaTokens } from "./media.js";
import { checkWebSearch, isSearchModel } from "./web-search.js";

export interface OpenAiTool {
  readonly name: string;
  readonly parameters: unknown;
}

export interface OpenAiMessage {
  readonly role: string;
  readonly text: string;
}

export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly OpenAiMessage[];
  readonly stream: boolean;
  readonly includeUsage: boolean;
  readonly maxTokens: number | undefined;
  readonly n: number;
  readonly tools: readonly OpenAiTool[];
  /** "none" | "auto" | "required" | a forced function name. */
  readonly toolChoice: string;
  /** What the media parts count as prompt tokens (media.ts). */
  readonly media: MediaTokens;
  /** A search model: it searches on every call and cites what it found (web-search.ts). */
  readonly searches: boolean;
  /** `modalities` asks for audio: the reply is spoken (chat.ts `spokenMessage`). */
  readonly speaks: boolean;
}

/** Validates the fields the fake relies on, with the API's own messages for what is missing or wrong. */
export function parseChatRequest(
  body: unknown,
  fields: ReadonlySet<string> = CHAT_FIELDS,
): ChatRequest | ProviderError {
  if (!isRecord(body)) return { status: 400, message: "The request body must be a JSON object." };
  const unrecognized = unrecognizedArguments(body, fields);
  if (unrecognized) return unrecognized;
  const { model, messages } = body;
  if (typeof model !== "string" || model === "") {
    return { status: 400, message: "you must provide a model parameter" };
  }
  const search = checkWebSearch(body, model);
  if (search) return search;
  if (!Array.isArray(messages)) {
    return missing("messages");
  }
  if (messages.length === 0) {
    return { status: 400, message: "[] is too short - 'messages'", param: "messages" };
  }
  const parsedMessages: OpenAiMessage[] = [];
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || typeof message.role !== "string") {
      return missing(`messages[${index}].role`);
    }
    parsedMessages.push({ role: message.role, text: messageText(message) });
  }
  const media = checkMediaParts(messages);
  if (media) return media;
  const stream = body.stream === true;
  if (body.stream_options !== undefined && body.stream_options !== null && !stream) {
    return {
      status: 400,
      message: "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      param: "stream_options",
    };
  }
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  if (
    maxTokens !== undefined &&
    maxTokens !== null &&
    (!Number.isInteger(maxTokens) || (maxTokens as number) < 1)
  ) {
    return { status: 400, message: "max_tokens must be a positive integer", param: "max_tokens" };
  }
  const n = body.n ?? 1;
  if (!Number.isInteger(n) || (n as number) < 1 || (n as number) > 128) {
    return { status: 400, message: "n must be an integer between 1 and 128", param: "n" };
  }
  const tools = Array.isArray(body.tools) ? body.tools.flatMap(parseTool) : [];
  return {
    model,
    messages: parsedMessages,
    stream,
    includeUsage: isRecord(body.stream_options) && body.stream_options.include_usage === true,
    maxTokens: typeof maxTokens === "number" ? maxTokens : undefined,
    n: n as number,
    tools,
    toolChoice: toolChoice(body.tool_choice),
    media: mediaTokens(messages),
    searches: isSearchModel(model),
    speaks: Array.isArray(body.modalities) && body.modalities.includes("audio"),
  };
}

function missing(param: string): ProviderError {
  return {
    status: 400,
    message: `Missing required parameter: '${param}'.`,
    param,
    code: "missing_required_parameter",
  };
}

function parseTool(tool: unknown): OpenAiTool[] {
  if (!isRecord(tool) || !isRecord(tool.function) || typeof tool.function.name !== "string") return [];
  return [{ name: tool.function.name, parameters: tool.function.parameters }];
}

function toolChoice(choice: unknown): string {
  if (typeof choice === "string") return choice;
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === "string") {
    return `function:${choice.function.name}`;
  }
  return "auto";
}

/** The text of a message: string content, text parts, and tool calls (so they count as prompt tokens). */
function messageText(message: Record<string, unknown>): string {
  const { content } = message;
  const parts: string[] = [];
  if (typeof content === "string") parts.push(content);
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (isRecord(part) && typeof part.text === "string") parts.push(part.text);
      else if (isRecord(part) && typeof part.refusal === "string") parts.push(part.refusal);
    }
  }
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      if (isRecord(call) && isRecord(call.function)) parts.push(JSON.stringify(call.function));
    }
  }
  return parts.join("\n");
}
