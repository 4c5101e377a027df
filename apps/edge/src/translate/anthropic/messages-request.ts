import { parseOrThrow } from "@gw/http";
import { z } from "zod";
import { type ChatMessage, type ChatRequest, chatRequestSchema } from "../../canonical/chat-request.js";
import { refuseUnknownMembers } from "../members.js";
import { utf8ToBase64 } from "../openai/media-parts.js";
import { untranslatable } from "../untranslatable.js";
import { ANTHROPIC_REASONING_FORMAT } from "./to-openai.js";

const block = z.looseObject({ type: z.string().min(1) });
const content = z.union([z.string(), z.array(block)]);
const systemBlock = z.looseObject({ type: z.literal("text"), text: z.string() });

// What the canonical form has a place for; any other top-level field (server-side features such as
// `container`, `mcp_servers`, `context_management`, `service_tier`) is refused by name, never dropped
// (the field table in apps/edge/README.md). `models` and `provider` are the gateway's routing.
const KNOWN_FIELDS = new Set([
  "model",
  "messages",
  "max_tokens",
  "system",
  "metadata",
  "stop_sequences",
  "stream",
  "temperature",
  "top_k",
  "top_p",
  "tools",
  "tool_choice",
  "thinking",
  "output_config",
  // Anthropic's (and OpenRouter's) automatic caching: the canonical request's top-level `cache_control`.
  "cache_control",
  "models",
  "provider",
]);

const names = (...list: string[]): ReadonlySet<string> => new Set(list);

// The members below the top level that the canonical form has a place for, per block type (Anthropic's
// Messages reference: content blocks, tools, tool_choice, metadata, thinking). Any other member is refused
// by its path (`messages[0].content[1].citations`), so a translated target never loses it in silence,
// while an Anthropic target still receives the body as sent (translateNative lists it as untranslated).
const MESSAGE = names("role", "content");
const BLOCK: Readonly<Record<string, ReadonlySet<string>>> = {
  text: names("type", "text", "cache_control"),
  image: names("type", "source", "cache_control"),
  // `citations` and `context` have no canonical place: refused by path, so only Anthropic gets them.
  document: names("type", "source", "cache_control", "title"),
  tool_result: names("type", "tool_use_id", "content", "is_error", "cache_control"),
  tool_use: names("type", "id", "name", "input", "cache_control"),
  thinking: names("type", "thinking", "signature"),
  redacted_thinking: names("type", "data"),
};
const IMAGE_SOURCE = names("type", "media_type", "data", "url");
const DOCUMENT_SOURCE = names("type", "media_type", "data", "url");
const RESULT_TEXT = names("type", "text");
const SYSTEM_BLOCK = names("type", "text", "cache_control");
const TOOL = names("name", "description", "input_schema", "type", "cache_control");
const TOOL_CHOICE = names("type", "name", "disable_parallel_tool_use");
const METADATA = names("user_id");
const THINKING = names("type", "budget_tokens");

function refuseUnknownNested(request: MessagesRequest | CountTokensRequest): void {
  for (const [index, message] of request.messages.entries()) {
    refuseUnknownMembers(message, MESSAGE, `messages[${index}]`);
    if (typeof message.content === "string") continue;
    for (const [at, entry] of message.content.entries()) {
      const where = `messages[${index}].content[${at}]`;
      const known = BLOCK[entry.type];
      if (known === undefined) continue; // the block type itself is refused by the translation
      refuseUnknownMembers(entry, known, where);
      if (entry.type === "image") refuseUnknownMembers(entry.source, IMAGE_SOURCE, `${where}.source`);
      if (entry.type === "document") refuseUnknownMembers(entry.source, DOCUMENT_SOURCE, `${where}.source`);
      if (entry.type === "tool_result" && Array.isArray(entry.content))
        for (const [part, text] of entry.content.entries())
          if ((text as { type?: unknown }).type === "text")
            refuseUnknownMembers(text, RESULT_TEXT, `${where}.content[${part}]`);
    }
  }
  if (Array.isArray(request.system))
    for (const [index, entry] of request.system.entries())
      refuseUnknownMembers(entry, SYSTEM_BLOCK, `system[${index}]`);
  for (const [index, tool] of (request.tools ?? []).entries())
    refuseUnknownMembers(tool, TOOL, `tools[${index}]`);
  refuseUnknownMembers(request.tool_choice, TOOL_CHOICE, "tool_choice");
  refuseUnknownMembers(request.metadata, METADATA, "metadata");
  refuseUnknownMembers((request as { thinking?: unknown }).thinking, THINKING, "thinking");
}

const fields = {
  model: z.string().min(1),
  messages: z.array(z.looseObject({ role: z.enum(["user", "assistant"]), content })).min(1),
  system: z.union([z.string(), z.array(systemBlock)]).optional(),
  tools: z
    .array(
      z.looseObject({
        name: z.string().min(1),
        description: z.string().optional(),
        input_schema: z.looseObject({}).optional(),
        type: z.string().optional(),
      }),
    )
    .optional(),
  tool_choice: z
    .looseObject({
      type: z.enum(["auto", "any", "tool", "none"]),
      name: z.string().optional(),
      disable_parallel_tool_use: z.boolean().optional(),
    })
    .optional(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).optional(),
  // The gateway's routing fields are accepted on every surface (api-decisions: Routing).
  models: chatRequestSchema.shape.models,
  provider: chatRequestSchema.shape.provider,
};

/** POST /v1/messages as the Anthropic API validates it: `max_tokens` is required. */
export const messagesRequestSchema = z.looseObject({
  ...fields,
  max_tokens: z.number().int().positive(),
  stream: z.boolean().optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().nonnegative().optional(),
  stop_sequences: z.array(z.string()).optional(),
});

/** POST /v1/messages/count_tokens: the same prompt fields, no `max_tokens`. */
export const countTokensRequestSchema = z.looseObject(fields);

export type MessagesRequest = z.infer<typeof messagesRequestSchema>;
export type CountTokensRequest = z.infer<typeof countTokensRequestSchema>;
type Block = z.infer<typeof block>;

export function parseMessagesRequest(body: unknown): MessagesRequest {
  return parseOrThrow(messagesRequestSchema, body);
}

export function parseCountTokensRequest(body: unknown): CountTokensRequest {
  return parseOrThrow(countTokensRequestSchema, body);
}

/**
 * An Anthropic Messages request in canonical (OpenAI chat) form (wire-formats §4.2–4.4): `system` →
 * a system message, `tool_result` blocks → tool messages ahead of the rest of their user turn,
 * `tool_use` → tool calls, thinking blocks → `reasoning_details` so they reach Anthropic again.
 * Blocks no other format can carry (documents, server tools) are refused with a 400.
 */
export function chatRequestFromMessages(request: MessagesRequest | CountTokensRequest): ChatRequest {
  const unknown = Object.keys(request).find((name) => !KNOWN_FIELDS.has(name));
  if (unknown) untranslatable(unknown, "the gateway has no translation for it (see the field table)");
  refuseUnknownNested(request);
  const messages: ChatMessage[] = [];
  const system = systemMessage(request.system);
  if (system) messages.push(system);
  for (const [index, message] of request.messages.entries()) {
    const path = `messages[${index}]`;
    if (message.role === "user") messages.push(...userMessages(message.content, path));
    else messages.push(assistantMessage(message.content, path));
  }
  const chat: ChatRequest = { model: request.model, messages };
  copyRouting(request, chat);
  copySampling(request, chat);
  const tools = request.tools?.map((tool, index) => {
    if (tool.type !== undefined && tool.type !== "custom")
      return untranslatable(
        `tools[${index}] (type ${tool.type})`,
        "server tools only run on Anthropic's own API",
      );
    return {
      type: "function",
      function: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        parameters: tool.input_schema ?? { type: "object", properties: {} },
      },
      // OpenRouter's place for a tool's caching breakpoint: beside `type` and `function`.
      ...markerOf(tool),
    };
  });
  if (tools && tools.length > 0) chat.tools = tools;
  const choice = request.tool_choice;
  if (choice) {
    if (choice.type === "tool" && !choice.name) untranslatable("tool_choice", "type tool needs a name");
    chat.tool_choice =
      choice.type === "tool"
        ? { type: "function", function: { name: choice.name } }
        : { auto: "auto", any: "required", none: "none" }[choice.type];
    if (choice.disable_parallel_tool_use === true) chat.parallel_tool_calls = false;
  }
  if (request.metadata?.user_id) chat.user = request.metadata.user_id;
  const thinking = (request as { thinking?: { type?: unknown; budget_tokens?: unknown } }).thinking;
  if (thinking?.type === "enabled" && typeof thinking.budget_tokens === "number")
    chat.reasoning = { max_tokens: thinking.budget_tokens };
  else if (thinking?.type === "adaptive") chat.reasoning = { enabled: true };
  else if (thinking?.type === "disabled") chat.reasoning = { enabled: false };
  const format = outputFormat(request);
  if (format) chat.response_format = format;
  return chat;
}

/** Anthropic's structured output (`output_config.format`, a JSON schema) as OpenAI's response_format. */
function outputFormat(request: MessagesRequest | CountTokensRequest): Record<string, unknown> | undefined {
  const config = (request as { output_config?: unknown }).output_config;
  if (config === undefined) return undefined;
  const record = (typeof config === "object" && config !== null ? config : {}) as Record<string, unknown>;
  const other = Object.keys(record).find((name) => name !== "format");
  // Named as `output_config.<key>`, so an Anthropic endpoint still receives it as sent (native.ts).
  if (other) untranslatable(`output_config.${other}`, "only output_config.format translates");
  const format = record.format as { type?: unknown; schema?: unknown } | undefined;
  if (format === undefined) return undefined;
  if (format?.type !== "json_schema" || typeof format.schema !== "object" || format.schema === null)
    return untranslatable("output_config.format", "only a json_schema format with its schema translates");
  return { type: "json_schema", json_schema: { name: "output", schema: format.schema, strict: true } };
}

/** A block's `cache_control`, to carry on the canonical part (OpenRouter's form). */
function markerOf(holder: Record<string, unknown>): { cache_control?: unknown } {
  return holder.cache_control === undefined ? {} : { cache_control: holder.cache_control };
}

function copyRouting(request: MessagesRequest | CountTokensRequest, chat: ChatRequest): void {
  if (request.models) chat.models = request.models;
  if (request.provider) chat.provider = request.provider;
  const automatic = (request as { cache_control?: unknown }).cache_control;
  if (automatic !== undefined) chat.cache_control = automatic;
}

function copySampling(request: MessagesRequest | CountTokensRequest, chat: ChatRequest): void {
  if (!("max_tokens" in request)) return;
  const messages = request as MessagesRequest;
  chat.max_tokens = messages.max_tokens;
  if (messages.stream !== undefined) chat.stream = messages.stream;
  if (messages.temperature !== undefined) chat.temperature = messages.temperature;
  if (messages.top_p !== undefined) chat.top_p = messages.top_p;
  if (messages.top_k !== undefined) chat.top_k = messages.top_k;
  if (messages.stop_sequences && messages.stop_sequences.length > 0) chat.stop = messages.stop_sequences;
}

/** `system` as one system message: a block array stays parts (with their breakpoints), not one string. */
function systemMessage(system: MessagesRequest["system"]): ChatMessage | undefined {
  if (system === undefined || system === "" || (Array.isArray(system) && system.length === 0))
    return undefined;
  if (typeof system === "string") return { role: "system", content: system };
  return {
    role: "system",
    content: system.map((entry) => ({ type: "text", text: entry.text, ...markerOf(entry) })),
  };
}

function blocksOf(content: string | Block[]): Block[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

/** Tool results first (one tool message each), then the turn's other content as one user message. */
function userMessages(content: string | Block[], path: string): ChatMessage[] {
  const tools: ChatMessage[] = [];
  const parts: Record<string, unknown>[] = [];
  for (const [index, entry] of blocksOf(content).entries()) {
    const where = `${path}.content[${index}]`;
    if (entry.type === "tool_result") tools.push(toolMessage(entry, where));
    else parts.push(userPart(entry, where));
  }
  if (parts.length === 0) return tools;
  const only = parts.length === 1 ? parts[0] : undefined;
  const plainText = only?.type === "text" && only.cache_control === undefined;
  const userContent = plainText ? String(only.text) : (parts as ChatMessage["content"]);
  return [...tools, { role: "user", content: userContent }];
}

function userPart(entry: Block, where: string): Record<string, unknown> {
  if (entry.type === "text" && typeof entry.text === "string")
    return { type: "text", text: entry.text, ...markerOf(entry) };
  if (entry.type === "image")
    return { type: "image_url", image_url: { url: imageUrl(entry.source, where) }, ...markerOf(entry) };
  if (entry.type === "document")
    return { type: "file", file: documentFile(entry, where), ...markerOf(entry) };
  return untranslatable(
    `${where} (type ${entry.type})`,
    "only text, image, document and tool_result blocks translate",
  );
}

function imageUrl(source: unknown, where: string): string {
  const record = (typeof source === "object" && source !== null ? source : {}) as Record<string, unknown>;
  if (record.type === "base64" && typeof record.media_type === "string" && typeof record.data === "string")
    return `data:${record.media_type};base64,${record.data}`;
  if (record.type === "url" && typeof record.url === "string") return record.url;
  return untranslatable(`${where}.source`, "only base64 and url image sources translate");
}

/**
 * A document block as the canonical `file` part (OpenRouter's form): a base64 PDF as a data: URL, a URL
 * as `file_data` itself, a plain-text source as a text/plain data: URL; `title` is the file name.
 */
function documentFile(entry: Block, where: string): Record<string, unknown> {
  const source = (typeof entry.source === "object" && entry.source !== null ? entry.source : {}) as Record<
    string,
    unknown
  >;
  const name = typeof entry.title === "string" ? { filename: entry.title } : {};
  if (source.type === "base64" && typeof source.media_type === "string" && typeof source.data === "string")
    return { ...name, file_data: `data:${source.media_type};base64,${source.data}` };
  if (source.type === "url" && typeof source.url === "string") return { ...name, file_data: source.url };
  if (source.type === "text" && typeof source.data === "string")
    return { ...name, file_data: `data:text/plain;base64,${utf8ToBase64(source.data)}` };
  return untranslatable(
    `${where}.source (type ${String(source.type)})`,
    "only base64, url and text document sources translate",
  );
}

function toolMessage(entry: Block, where: string): ChatMessage {
  if (typeof entry.tool_use_id !== "string") untranslatable(`${where}.tool_use_id`, "it is missing");
  const body = entry.content;
  let text: string;
  if (body === undefined || typeof body === "string") text = body ?? "";
  else if (Array.isArray(body))
    text = body
      .map((part: Record<string, unknown>, index: number) =>
        part.type === "text" && typeof part.text === "string"
          ? part.text
          : untranslatable(
              `${where}.content[${index}] (type ${String(part.type)})`,
              "tool results translate as text only",
            ),
      )
      .join("");
  else return untranslatable(`${where}.content`, "expected a string or text blocks");
  // Chat Completions has no error flag on tool results: the text carries it.
  const content = entry.is_error === true ? `Error: ${text}` : text;
  return {
    role: "tool",
    tool_call_id: entry.tool_use_id as string,
    // A breakpoint on the result rides on its one text part, so an Anthropic target gets it back.
    content:
      entry.cache_control === undefined ? content : [{ type: "text", text: content, ...markerOf(entry) }],
  };
}

function assistantMessage(content: string | Block[], path: string): ChatMessage {
  const texts: Record<string, unknown>[] = [];
  const calls: Record<string, unknown>[] = [];
  const details: Record<string, unknown>[] = [];
  for (const [index, entry] of blocksOf(content).entries()) {
    const where = `${path}.content[${index}]`;
    if (entry.type === "text" && typeof entry.text === "string")
      texts.push({ type: "text", text: entry.text, ...markerOf(entry) });
    else if (entry.type === "tool_use") {
      // A breakpoint on a tool call has no canonical place; only Anthropic (served natively) uses it.
      calls.push({
        id: entry.id,
        type: "function",
        function: { name: entry.name, arguments: JSON.stringify(entry.input ?? {}) },
      });
    } else if (entry.type === "thinking")
      details.push({
        type: "reasoning.text",
        text: entry.thinking,
        signature: entry.signature,
        format: ANTHROPIC_REASONING_FORMAT,
      });
    else if (entry.type === "redacted_thinking")
      details.push({ type: "reasoning.encrypted", data: entry.data, format: ANTHROPIC_REASONING_FORMAT });
    else untranslatable(`${where} (type ${entry.type})`, "only text, tool_use and thinking blocks translate");
  }
  const marked = texts.some((part) => part.cache_control !== undefined);
  const joined = texts.length > 0 ? texts.map((part) => String(part.text)).join("") : null;
  const message: ChatMessage = {
    role: "assistant",
    content: marked ? (texts as ChatMessage["content"]) : joined,
  };
  if (calls.length > 0) message.tool_calls = calls;
  if (details.length > 0) message.reasoning_details = details;
  return message;
}
