import { type ChatMessage, type ChatRequest, parseChatRequest } from "../../canonical/chat-request.js";
import { untranslatable } from "../untranslatable.js";
import { chatMessagesFromInput } from "./input-items.js";
import type { ResponsesRequest, ResponsesTool, ResponsesToolChoice, SummaryMode } from "./request-schema.js";

type Json = Record<string, unknown>;

/** What the response object repeats from the request (OpenAI's Response echoes its parameters). */
export interface ResponsesEcho {
  instructions: string | null;
  tools: Json[];
  toolChoice: ResponsesToolChoice;
  parallelToolCalls: boolean;
  temperature: number | null;
  topP: number | null;
  maxOutputTokens: number | null;
  metadata: Record<string, string>;
  user: string | null;
  reasoning: { effort: string | null; summary: SummaryMode | null };
  text: Json;
}

function chatTool(tool: ResponsesTool, index: number): Json {
  if (tool.type !== "function")
    untranslatable(`tools[${index}].type`, `${tool.type} tools are not supported (function tools are)`);
  if (!tool.name) return untranslatable(`tools[${index}].name`, "a function tool needs its name");
  const fn: Json = { name: tool.name, parameters: tool.parameters ?? { type: "object", properties: {} } };
  if (tool.description) fn.description = tool.description;
  if (typeof tool.strict === "boolean") fn.strict = tool.strict;
  return { type: "function", function: fn };
}

function chatToolChoice(choice: ResponsesToolChoice): unknown {
  if (typeof choice === "string") return choice;
  if (choice.type === "function" && choice.name) return { type: "function", function: { name: choice.name } };
  return untranslatable(
    "tool_choice",
    `tool_choice ${choice.type} is not supported (auto, none, required, function)`,
  );
}

function responseFormat(format: NonNullable<ResponsesRequest["text"]>["format"]): Json | undefined {
  if (!format || format.type === "text") return undefined;
  if (format.type === "json_object") return { type: "json_object" };
  const schema: Json = { name: format.name, schema: format.schema };
  if (format.description) schema.description = format.description;
  if (typeof format.strict === "boolean") schema.strict = format.strict;
  return { type: "json_schema", json_schema: schema };
}

function messages(request: ResponsesRequest): ChatMessage[] {
  const fromInput = chatMessagesFromInput(request.input);
  if (fromInput.length === 0) untranslatable("input", "holds no message to answer (only reasoning items)");
  return request.instructions ? [{ role: "system", content: request.instructions }, ...fromInput] : fromInput;
}

/**
 * Tools with their choice and parallelism. Without tools the Responses API takes `tool_choice` and
 * `parallel_tool_calls` as the defaults they are, while chat APIs refuse them: they are not sent then.
 */
function applyTools(request: ResponsesRequest, chat: Json): void {
  if (!request.tools || request.tools.length === 0) return;
  chat.tools = request.tools.map(chatTool);
  if (request.tool_choice !== undefined) chat.tool_choice = chatToolChoice(request.tool_choice);
  if (typeof request.parallel_tool_calls === "boolean")
    chat.parallel_tool_calls = request.parallel_tool_calls;
}

/**
 * A Responses request in the edge's canonical (chat) form, so it runs the same planning, admission,
 * failover and metering as chat on every provider. Reasoning goes as OpenRouter's unified `reasoning`
 * object, which every provider adapter translates.
 */
export function chatRequestFromResponses(request: ResponsesRequest): ChatRequest {
  const chat: Json = { model: request.model, messages: messages(request) };
  if (request.models) chat.models = request.models;
  if (request.provider) chat.provider = request.provider;
  if (request.stream) chat.stream = true;
  if (request.max_output_tokens) chat.max_completion_tokens = request.max_output_tokens;
  if (typeof request.temperature === "number") chat.temperature = request.temperature;
  if (typeof request.top_p === "number") chat.top_p = request.top_p;
  const user = request.user ?? request.safety_identifier;
  if (user) chat.user = user;
  if (request.prompt_cache_key) chat.prompt_cache_key = request.prompt_cache_key;
  applyTools(request, chat);
  if (request.reasoning?.effort) chat.reasoning = { effort: request.reasoning.effort };
  const format = responseFormat(request.text?.format);
  if (format) chat.response_format = format;
  if (request.text?.verbosity) chat.verbosity = request.text.verbosity;
  return parseChatRequest(chat);
}

export function responsesEcho(request: ResponsesRequest): ResponsesEcho {
  return {
    instructions: request.instructions ?? null,
    tools: (request.tools ?? []).map((tool) => ({ ...tool })),
    toolChoice: request.tool_choice ?? "auto",
    parallelToolCalls: request.parallel_tool_calls ?? true,
    temperature: request.temperature ?? null,
    topP: request.top_p ?? null,
    maxOutputTokens: request.max_output_tokens ?? null,
    metadata: request.metadata ?? {},
    user: request.user ?? null,
    reasoning: {
      effort: request.reasoning?.effort ?? null,
      summary: request.reasoning?.summary ?? request.reasoning?.generate_summary ?? null,
    },
    text: {
      format: request.text?.format ?? { type: "text" },
      verbosity: request.text?.verbosity ?? "medium",
    },
  };
}
