import type { ChatMessage } from "../../canonical/chat-request.js";
import { untranslatable } from "../untranslatable.js";
import { decodeReasoningDetails, mergeReasoningDetails } from "./reasoning-state.js";
import type { ResponsesInputItem } from "./request-schema.js";

type Json = Record<string, unknown>;
type Part = Json & { type: string };
type ToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };

const MESSAGE_ROLES = new Set(["user", "system", "developer", "assistant"]);

function isString(value: unknown): value is string {
  return typeof value === "string";
}

/** An input_image part as a chat image_url part; a file id means stored state the gateway has none of. */
function imagePart(part: Part, path: string): Part {
  if (!isString(part.image_url))
    untranslatable(
      `${path}.file_id`,
      "files are not stored here: send the image as image_url (a URL or data URL)",
    );
  const detail = isString(part.detail) ? { detail: part.detail } : {};
  return { type: "image_url", image_url: { url: part.image_url, ...detail } };
}

/**
 * An input_file part as a chat `file` part (OpenAI's Responses reference, input_file): `file_data`
 * (a base64 data: URL) as sent, `file_url` as OpenRouter's URL `file_data` (a format that needs the
 * bytes has the edge fetch it), a `file_id` as the chat part's `file_id` (OpenAI endpoints only).
 */
function filePart(part: Part, path: string): Part {
  const name = isString(part.filename) ? { filename: part.filename } : {};
  if (isString(part.file_data)) return { type: "file", file: { ...name, file_data: part.file_data } };
  if (isString(part.file_url)) return { type: "file", file: { ...name, file_data: part.file_url } };
  if (isString(part.file_id)) return { type: "file", file: { ...name, file_id: part.file_id } };
  return untranslatable(path, "an input_file needs file_data, file_url or file_id");
}

/** An input_audio part: the same `{data, format}` object as chat's. */
function audioPart(part: Part, path: string): Part {
  const audio = part.input_audio as Json | undefined;
  if (!isString(audio?.data) || !isString(audio.format))
    return untranslatable(`${path}.input_audio`, "data and format are required");
  return { type: "input_audio", input_audio: { data: audio.data, format: audio.format } };
}

/** Responses content parts → chat content parts (text, images, files, audio; the assistant's own text back). */
function contentParts(parts: readonly Part[], path: string): Part[] {
  return parts.map((part, index) => {
    const where = `${path}[${index}]`;
    if (typeof part !== "object" || part === null) untranslatable(where, "a content part must be an object");
    if (part.type === "input_text" || part.type === "output_text") {
      if (!isString(part.text)) untranslatable(`${where}.text`, "a text part needs its text");
      return { type: "text", text: part.text };
    }
    if (part.type === "refusal" && isString(part.refusal)) return { type: "text", text: part.refusal };
    if (part.type === "input_image") return imagePart(part, where);
    if (part.type === "input_file") return filePart(part, where);
    if (part.type === "input_audio") return audioPart(part, where);
    return untranslatable(`${where}.type`, `content part ${part.type} is not supported`);
  });
}

function messageContent(content: unknown, path: string): string | Part[] {
  if (isString(content)) return content;
  if (!Array.isArray(content))
    return untranslatable(`${path}.content`, "must be a string or an array of parts");
  return contentParts(content as Part[], `${path}.content`);
}

/** Text-only roles (system, developer, assistant) get the text of their parts as one string. */
function textOnly(content: string | Part[], path: string): string {
  if (isString(content)) return content;
  return content
    .map((part) => {
      if (part.type !== "text") untranslatable(`${path}.content`, "only text parts are allowed in this role");
      return part.text as string;
    })
    .join("");
}

function messageItem(item: ResponsesInputItem, path: string): ChatMessage {
  const role = item.role;
  if (!isString(role) || !MESSAGE_ROLES.has(role))
    return untranslatable(`${path}.role`, "must be user, system, developer or assistant");
  const content = messageContent(item.content, path);
  if (role === "user") return { role, content };
  // Chat's `developer` role is OpenAI's alone; `system` means the same to every provider.
  return { role: role === "assistant" ? "assistant" : "system", content: textOnly(content, path) };
}

function functionCall(item: ResponsesInputItem, path: string): ToolCall {
  const { call_id: callId, name, arguments: args } = item as Json;
  if (!isString(callId)) untranslatable(`${path}.call_id`, "a function_call needs its call_id");
  if (!isString(name)) untranslatable(`${path}.name`, "a function_call needs its name");
  return { id: callId, type: "function", function: { name, arguments: isString(args) ? args : "" } };
}

function functionOutput(item: ResponsesInputItem, path: string): ChatMessage {
  const { call_id: callId, output } = item as Json;
  if (!isString(callId)) untranslatable(`${path}.call_id`, "a function_call_output needs its call_id");
  const text = isString(output) ? output : textOnly(messageContent(output, path), path);
  return { role: "tool", tool_call_id: callId, content: text };
}

/**
 * Input items → chat messages. Consecutive function calls become one assistant turn with
 * `tool_calls` (joined to the assistant text right before them), outputs become tool messages.
 * Reasoning items bring back the provider state this gateway handed out in `encrypted_content`; their
 * summaries are the model's own earlier words, which no provider takes back, and are not sent on.
 */
export function chatMessagesFromInput(input: string | readonly ResponsesInputItem[]): ChatMessage[] {
  if (isString(input)) return [{ role: "user", content: input }];
  const messages: ChatMessage[] = [];
  const reasoning = new PendingReasoning();
  input.forEach((item, index) => {
    const path = `input[${index}]`;
    const type = item.type ?? "message";
    if (type === "message") messages.push(reasoning.attach(messageItem(item, path)));
    else if (type === "function_call") appendToolCall(messages, functionCall(item, path), reasoning);
    else if (type === "function_call_output") messages.push(functionOutput(item, path));
    else if (type === "reasoning")
      reasoning.add(messages, decodeReasoningDetails((item as Json).encrypted_content));
    else if (type === "item_reference")
      untranslatable(
        `${path}.type`,
        "item_reference needs stored responses and this API is stateless: send the items themselves " +
          "(the AI SDK does with providerOptions.openai.store = false)",
      );
    else untranslatable(`${path}.type`, `input item ${type} is not supported`);
  });
  return messages;
}

function appendToolCall(messages: ChatMessage[], call: ToolCall, reasoning: PendingReasoning): void {
  const last = messages.at(-1);
  if (last?.role === "assistant") {
    last.tool_calls = [...(last.tool_calls ?? []), call];
    return;
  }
  messages.push(reasoning.attach({ role: "assistant", content: null, tool_calls: [call] }));
}

/**
 * The provider state of reasoning items (reasoning-state.ts) goes on the assistant turn it belongs
 * to: the one it follows (a streamed answer lists it last), else the next one.
 */
class PendingReasoning {
  private pending: Json[] = [];

  add(messages: ChatMessage[], details: Json[]): void {
    if (details.length === 0) return;
    const last = messages.at(-1);
    if (last?.role === "assistant") withDetails(last, details);
    else this.pending.push(...details);
  }

  attach(message: ChatMessage): ChatMessage {
    if (message.role !== "assistant" || this.pending.length === 0) return message;
    withDetails(message, this.pending);
    this.pending = [];
    return message;
  }
}

function withDetails(message: ChatMessage, details: Json[]): void {
  const earlier = Array.isArray(message.reasoning_details) ? (message.reasoning_details as Json[]) : [];
  message.reasoning_details = mergeReasoningDetails([...earlier, ...details]);
}
