import { type ChatRequest, requestedMaxTokens } from "../../canonical/chat-request.js";
import {
  type ContentPiece,
  contentPieces,
  contentText,
  functionTools,
  parseArguments,
  stopSequences,
  systemPrompt,
  toolCalls,
  toolChoice,
} from "../openai/content.js";
import { reasoningBudget } from "../openai/reasoning.js";
import { untranslatable } from "../untranslatable.js";
import { ANTHROPIC_REASONING_FORMAT } from "./to-openai.js";

/** Anthropic requires `max_tokens`; OpenAI leaves it optional, so a translated request gets this. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;
const MIN_THINKING_BUDGET = 1024;

type Block = Record<string, unknown>;
interface AnthropicMessage {
  role: "user" | "assistant";
  content: Block[];
}

/**
 * A canonical (OpenAI) chat request as an Anthropic Messages body (wire-formats §4.1–4.4): system
 * messages lifted to `system`, tool messages merged into the next user turn as `tool_result` blocks,
 * temperature clamped to Anthropic's 0–1, a json_schema response_format as structured output.
 * Parameters with no Anthropic field (seed, penalties, logprobs, a json_object format) are dropped;
 * content it cannot carry is refused.
 */
export function anthropicRequestBody(
  request: ChatRequest,
  upstreamModel: string,
  stream: boolean,
): Record<string, unknown> {
  if ((request.n ?? 1) > 1) untranslatable("n > 1", "Anthropic returns one choice per request");
  const body: Record<string, unknown> = {
    model: upstreamModel,
    max_tokens: requestedMaxTokens(request) ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
    messages: anthropicMessages(request),
  };
  const system = systemPrompt(request.messages);
  if (system !== undefined) body.system = system;
  if (typeof request.temperature === "number") body.temperature = Math.min(request.temperature, 1);
  if (typeof request.top_p === "number") body.top_p = request.top_p;
  if (typeof request.top_k === "number") body.top_k = request.top_k;
  const stops = stopSequences(request.stop);
  if (stops) body.stop_sequences = stops;
  const tools = functionTools(request.tools);
  if (tools.length > 0) {
    body.tools = tools.map((tool) => ({
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      input_schema: tool.parameters ?? { type: "object", properties: {} },
    }));
  }
  const choice = anthropicToolChoice(request);
  if (choice) body.tool_choice = choice;
  if (request.user) body.metadata = { user_id: request.user };
  applyThinking(request, body);
  applyOutputFormat(request, body);
  if (stream) body.stream = true;
  return body;
}

/**
 * A reasoning request as Anthropic's extended thinking: the budget (at least Anthropic's 1,024) must
 * stay below `max_tokens`, so the answer's own allowance is added on top; thinking runs at Anthropic's
 * fixed sampling, so temperature and top-k/top-p are left out.
 */
function applyThinking(request: ChatRequest, body: Record<string, unknown>): void {
  const requested = reasoningBudget(request);
  if (requested === undefined) return;
  const budget = Math.max(MIN_THINKING_BUDGET, requested);
  body.thinking = { type: "enabled", budget_tokens: budget };
  const maxTokens = Number(body.max_tokens);
  if (maxTokens <= budget) body.max_tokens = budget + maxTokens;
  for (const field of ["temperature", "top_k", "top_p"]) delete body[field];
}

/**
 * A JSON schema answer format as Anthropic's structured output (`output_config.format`). A model
 * without structured outputs refuses it upstream, which the client sees, rather than getting free
 * text in silence. `json_object` has no Anthropic form (it needs a schema) and stays a prompt matter.
 */
function applyOutputFormat(request: ChatRequest, body: Record<string, unknown>): void {
  const format = request.response_format as
    | { type?: unknown; json_schema?: { schema?: unknown } }
    | undefined;
  if (format?.type !== "json_schema") return;
  const schema = format.json_schema?.schema;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    untranslatable("response_format.json_schema.schema", "a JSON schema answer needs its schema object");
  body.output_config = { format: { type: "json_schema", schema } };
}

function anthropicToolChoice(request: ChatRequest): Record<string, unknown> | undefined {
  const choice = toolChoice(request.tool_choice);
  const disableParallel = request.parallel_tool_calls === false;
  if (!choice) return disableParallel ? { type: "auto", disable_parallel_tool_use: true } : undefined;
  const base =
    choice.mode === "function"
      ? { type: "tool", name: choice.name }
      : { type: choice.mode === "required" ? "any" : choice.mode };
  return disableParallel && choice.mode !== "none" ? { ...base, disable_parallel_tool_use: true } : base;
}

function anthropicMessages(request: ChatRequest): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage["role"], blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = out.at(-1);
    // Tool results must lead the user turn that follows the calls; same-role turns merge.
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const [index, message] of request.messages.entries()) {
    const path = `messages[${index}]`;
    if (message.role === "user") push("user", contentPieces(message.content, `${path}.content`).map(toBlock));
    else if (message.role === "assistant") push("assistant", assistantBlocks(message, path));
    else if (message.role === "tool")
      push("user", [
        {
          type: "tool_result",
          tool_use_id: message.tool_call_id,
          content: contentText(message.content, `${path}.content`),
        },
      ]);
    else if (message.role === "function")
      untranslatable(`${path} (role function)`, "legacy function messages do not translate");
  }
  if (out.length === 0)
    untranslatable("messages", "there is no user or assistant turn besides the system prompt");
  return out;
}

function assistantBlocks(message: ChatRequest["messages"][number], path: string): Block[] {
  const blocks: Block[] = [];
  const thinking = message.reasoning_details;
  if (Array.isArray(thinking)) blocks.push(...thinkingBlocks(thinking));
  blocks.push(...contentPieces(message.content, `${path}.content`).map(toBlock));
  for (const call of toolCalls(message, path)) {
    blocks.push({
      type: "tool_use",
      id: call.id,
      name: call.name,
      input: parseArguments(call.arguments, `${path}.tool_calls(${call.id}).function.arguments`),
    });
  }
  return blocks;
}

/**
 * Anthropic thinking blocks that an earlier translated response handed out as `reasoning_details`
 * (OpenRouter's field): Anthropic needs them back unchanged on tool-use turns. Other providers'
 * signatures mean nothing to Anthropic and are left out.
 */
function thinkingBlocks(details: unknown[]): Block[] {
  const blocks: Block[] = [];
  for (const detail of details) {
    if (typeof detail !== "object" || detail === null) continue;
    const entry = detail as Record<string, unknown>;
    if (entry.format !== ANTHROPIC_REASONING_FORMAT) continue;
    if (entry.type === "reasoning.text" && typeof entry.signature === "string")
      blocks.push({ type: "thinking", thinking: entry.text ?? "", signature: entry.signature });
    else if (entry.type === "reasoning.encrypted" && typeof entry.data === "string")
      blocks.push({ type: "redacted_thinking", data: entry.data });
  }
  return blocks;
}

function toBlock(piece: ContentPiece): Block {
  if (piece.kind === "text") return { type: "text", text: piece.text };
  if (piece.kind === "image")
    return { type: "image", source: { type: "base64", media_type: piece.mediaType, data: piece.data } };
  return { type: "image", source: { type: "url", url: piece.url } };
}
