import { parseOrThrow } from "@gw/http";
import { z } from "zod";
import { type ChatMessage, type ChatRequest, chatRequestSchema } from "../../canonical/chat-request.js";
import { untranslatable } from "../untranslatable.js";
import { ANTHROPIC_REASONING_FORMAT } from "./to-openai.js";

const block = z.looseObject({ type: z.string().min(1) });
const content = z.union([z.string(), z.array(block)]);
const systemBlock = z.looseObject({ type: z.literal("text"), text: z.string() });

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
  const messages: ChatMessage[] = [];
  const system = systemText(request.system);
  if (system) messages.push({ role: "system", content: system });
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
  return chat;
}

function copyRouting(request: MessagesRequest | CountTokensRequest, chat: ChatRequest): void {
  if (request.models) chat.models = request.models;
  if (request.provider) chat.provider = request.provider;
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

function systemText(system: MessagesRequest["system"]): string | undefined {
  if (system === undefined) return undefined;
  return typeof system === "string" ? system : system.map((entry) => entry.text).join("\n\n");
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
  const userContent = only?.type === "text" ? String(only.text) : (parts as ChatMessage["content"]);
  return [...tools, { role: "user", content: userContent }];
}

function userPart(entry: Block, where: string): Record<string, unknown> {
  if (entry.type === "text" && typeof entry.text === "string") return { type: "text", text: entry.text };
  if (entry.type === "image") return { type: "image_url", image_url: { url: imageUrl(entry.source, where) } };
  return untranslatable(`${where} (type ${entry.type})`, "only text, image and tool_result blocks translate");
}

function imageUrl(source: unknown, where: string): string {
  const record = (typeof source === "object" && source !== null ? source : {}) as Record<string, unknown>;
  if (record.type === "base64" && typeof record.media_type === "string" && typeof record.data === "string")
    return `data:${record.media_type};base64,${record.data}`;
  if (record.type === "url" && typeof record.url === "string") return record.url;
  return untranslatable(`${where}.source`, "only base64 and url image sources translate");
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
  return {
    role: "tool",
    tool_call_id: entry.tool_use_id as string,
    content: entry.is_error === true ? `Error: ${text}` : text,
  };
}

function assistantMessage(content: string | Block[], path: string): ChatMessage {
  const texts: string[] = [];
  const calls: Record<string, unknown>[] = [];
  const details: Record<string, unknown>[] = [];
  for (const [index, entry] of blocksOf(content).entries()) {
    const where = `${path}.content[${index}]`;
    if (entry.type === "text" && typeof entry.text === "string") texts.push(entry.text);
    else if (entry.type === "tool_use")
      calls.push({
        id: entry.id,
        type: "function",
        function: { name: entry.name, arguments: JSON.stringify(entry.input ?? {}) },
      });
    else if (entry.type === "thinking")
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
  const message: ChatMessage = { role: "assistant", content: texts.length > 0 ? texts.join("") : null };
  if (calls.length > 0) message.tool_calls = calls;
  if (details.length > 0) message.reasoning_details = details;
  return message;
}
