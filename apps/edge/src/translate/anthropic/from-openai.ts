import { type ChatRequest, requestedMaxTokens } from "../../canonical/chat-request.js";
import {
  type CacheControl,
  type ContentPiece,
  contentPieces,
  contentText,
  functionTools,
  lastCacheControl,
  parseArguments,
  stopSequences,
  systemBlocks,
  toolCalls,
  toolChoice,
} from "../openai/content.js";
import { thinkingMode } from "../openai/reasoning.js";
import { refuseForeignFields } from "../target-fields.js";
import { untranslatable } from "../untranslatable.js";
import { applyAutomaticCaching } from "./automatic-cache.js";
import { anthropicMediaBlock } from "./media-blocks.js";
import { ANTHROPIC_REASONING_FORMAT } from "./to-openai.js";

/**
 * Anthropic requires `max_tokens`; OpenAI leaves it optional. A translated request without one gets the
 * endpoint's output cap (the model's own limit, as an OpenAI-format caller expects); this only where the
 * catalogue publishes no cap.
 */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;
const MIN_THINKING_BUDGET = 1024;
/** Anthropic has no "let the model decide": thinking switched on with no amount gets a medium budget. */
const DYNAMIC_THINKING_BUDGET = 4096;

type Block = Record<string, unknown>;
interface AnthropicMessage {
  role: "user" | "assistant";
  content: Block[];
}

/**
 * A canonical (OpenAI) chat request as an Anthropic Messages body (wire-formats §4.1–4.4): system
 * messages lifted to `system` (text blocks with their caching breakpoints when any carries one or was
 * sent as parts), tool messages merged into the next user turn as `tool_result` blocks, `cache_control`
 * kept on blocks and tools, temperature clamped to Anthropic's 0–1, a json_schema response_format as
 * structured output. Sampling parameters with no Anthropic field (seed, penalties, logprobs) are dropped
 * as the field table in apps/edge/README.md says; content and formats it cannot carry are refused.
 */
export function anthropicRequestBody(
  request: ChatRequest,
  upstreamModel: string,
  stream: boolean,
  outputCap = 0,
): Record<string, unknown> {
  if ((request.n ?? 1) > 1) untranslatable("n > 1", "Anthropic returns one choice per request");
  refuseForeignFields(request, "anthropic");
  const body: Record<string, unknown> = {
    model: upstreamModel,
    max_tokens: requestedMaxTokens(request) ?? (outputCap > 0 ? outputCap : DEFAULT_ANTHROPIC_MAX_TOKENS),
    messages: anthropicMessages(request),
  };
  const system = anthropicSystem(request);
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
      ...cacheField(tool.cacheControl),
    }));
  }
  const choice = anthropicToolChoice(request);
  if (choice) body.tool_choice = choice;
  if (request.user) body.metadata = { user_id: request.user };
  applyAutomaticCaching(request, body);
  applyThinking(request, body, outputCap);
  applyOutputFormat(request, body);
  if (stream) body.stream = true;
  return body;
}

/**
 * A reasoning request as Anthropic's extended thinking. The budget (at least Anthropic's 1,024) must stay
 * below `max_tokens`: a caller's `max_tokens` is the cap on everything generated (OpenAI's meaning), so
 * the budget is cut to fit under it; without one the endpoint's output cap is that cap, and where no cap
 * is published the answer's default allowance is added on top.
 * Anthropic refuses thinking with a changed temperature, any top_k, top_p below 0.95 or a forced tool
 * (docs.claude.com, "Extended thinking": feature compatibility), so the gateway refuses them the same way
 * rather than deleting them in silence. "Dynamic" has no Anthropic form and gets the medium budget.
 */
function applyThinking(request: ChatRequest, body: Record<string, unknown>, outputCap: number): void {
  const mode = thinkingMode(request);
  if (mode === undefined || mode.kind === "off") return;
  refuseWithThinking(request);
  const wanted = Math.max(
    MIN_THINKING_BUDGET,
    mode.kind === "budget" ? mode.tokens : DYNAMIC_THINKING_BUDGET,
  );
  // Without a caller's cap the endpoint's own is the cap on everything generated, thinking included.
  const capped = requestedMaxTokens(request) ?? (outputCap > 0 ? outputCap : undefined);
  if (capped === undefined) {
    body.max_tokens = wanted + DEFAULT_ANTHROPIC_MAX_TOKENS;
    body.thinking = { type: "enabled", budget_tokens: wanted };
    return;
  }
  if (capped <= MIN_THINKING_BUDGET)
    untranslatable(
      "reasoning",
      `Anthropic's thinking budget is at least ${MIN_THINKING_BUDGET} tokens and must stay below max_tokens (${capped})`,
    );
  body.thinking = { type: "enabled", budget_tokens: Math.min(wanted, capped - 1) };
}

function refuseWithThinking(request: ChatRequest): void {
  const why = "Anthropic does not allow it while thinking is on";
  if (typeof request.temperature === "number" && request.temperature !== 1)
    untranslatable("temperature (other than 1) with reasoning", why);
  if (typeof request.top_k === "number") untranslatable("top_k with reasoning", why);
  if (typeof request.top_p === "number" && request.top_p < 0.95)
    untranslatable("top_p below 0.95 with reasoning", why);
  const choice = toolChoice(request.tool_choice);
  if (choice && (choice.mode === "required" || choice.mode === "function"))
    untranslatable("tool_choice forcing a tool with reasoning", why);
}

/**
 * A JSON schema answer format as Anthropic's structured output (`output_config.format`). A model
 * without structured outputs refuses it upstream, which the client sees, rather than getting free
 * text in silence. `json_object` has no Anthropic form (structured output needs a schema), so it is
 * refused: answering 200 with free text would break the caller's JSON parse later.
 */
function applyOutputFormat(request: ChatRequest, body: Record<string, unknown>): void {
  const format = request.response_format as
    | { type?: unknown; json_schema?: { schema?: unknown } }
    | undefined;
  if (format?.type === "json_object")
    untranslatable(
      "response_format json_object",
      "Anthropic's structured output needs a schema; send response_format json_schema",
    );
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
          ...cacheField(lastCacheControl(message.content, `${path}.content`)),
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
  return { ...plainBlock(piece), ...cacheField(piece.cacheControl) };
}

function plainBlock(piece: ContentPiece): Block {
  if (piece.kind === "text") return { type: "text", text: piece.text };
  return anthropicMediaBlock(piece, piece.path);
}

/** Anthropic's `cache_control` as the caller wrote it (type and TTL), where a breakpoint was set. */
function cacheField(marker: CacheControl | undefined): Block {
  return marker ? { cache_control: marker } : {};
}

/**
 * `system` as a string when every system message was plain text without breakpoints (the common
 * case, and what older clients expect); otherwise as text blocks, so parts and their caching
 * breakpoints arrive as the caller split them instead of flattened.
 */
function anthropicSystem(request: ChatRequest): string | Block[] | undefined {
  const blocks = systemBlocks(request.messages);
  if (!blocks) return undefined;
  const asParts = request.messages.some(
    (message) =>
      (message.role === "system" || message.role === "developer") && Array.isArray(message.content),
  );
  if (!asParts) return blocks.map((block) => block.text).join("\n\n");
  return blocks.map((block) => ({ type: "text", text: block.text, ...cacheField(block.cacheControl) }));
}
