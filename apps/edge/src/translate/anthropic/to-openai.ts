import type { TokenUsage } from "../../canonical/tokens.js";
import { type CompletionWire, usageToWire } from "../../canonical/wire.js";
import { blockCitations } from "./web-citations.js";

/** Tags reasoning details that carry Anthropic signatures, so they only ever go back to Anthropic. */
export const ANTHROPIC_REASONING_FORMAT = "anthropic-claude-v1";

const FINISH: Readonly<Record<string, string>> = {
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_use: "tool_calls",
  refusal: "content_filter",
};

/** Anthropic `stop_reason` → OpenAI `finish_reason` (wire-formats §4.5). */
export function openAiFinishReason(stopReason: string | null | undefined): string | null {
  if (!stopReason) return null;
  return FINISH[stopReason] ?? "stop";
}

export interface AnthropicUsageWire {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  /** The writes by TTL (`ephemeral_5m_input_tokens`, `ephemeral_1h_input_tokens`). */
  cache_creation?: { ephemeral_1h_input_tokens?: number | null } | null;
  /** Server tools run for the answer (docs.claude.com "Web search tool", "Usage"). */
  server_tool_use?: { web_search_requests?: number | null } | null;
}

/** Anthropic's `input_tokens` excludes cache reads and writes; canonical prompt tokens include them. */
export function usageFromAnthropic(wire: AnthropicUsageWire | undefined): TokenUsage | undefined {
  if (!wire || (typeof wire.input_tokens !== "number" && typeof wire.output_tokens !== "number"))
    return undefined;
  const cachedTokens = wire.cache_read_input_tokens ?? 0;
  const cacheWriteTokens = wire.cache_creation_input_tokens ?? 0;
  const long = wire.cache_creation?.ephemeral_1h_input_tokens ?? 0;
  const searches = wire.server_tool_use?.web_search_requests ?? 0;
  return {
    promptTokens: (wire.input_tokens ?? 0) + cachedTokens + cacheWriteTokens,
    completionTokens: wire.output_tokens ?? 0,
    cachedTokens,
    cacheWriteTokens,
    reasoningTokens: 0,
    ...(long > 0 ? { cacheWriteLongTokens: long } : {}),
    ...(searches > 0 ? { webSearches: searches } : {}),
  };
}

type Block = Record<string, unknown>;

/** Anthropic content blocks → one OpenAI assistant message (text joined, tool_use → tool_calls). */
export function messageFromBlocks(blocks: readonly Block[]): Record<string, unknown> {
  const texts: string[] = [];
  const reasoning: string[] = [];
  const details: Record<string, unknown>[] = [];
  const calls: Record<string, unknown>[] = [];
  for (const block of blocks) {
    if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
    else if (block.type === "thinking") {
      if (typeof block.thinking === "string") reasoning.push(block.thinking);
      details.push(reasoningDetail("reasoning.text", { text: block.thinking, signature: block.signature }));
    } else if (block.type === "redacted_thinking")
      details.push(reasoningDetail("reasoning.encrypted", { data: block.data }));
    else if (block.type === "tool_use")
      calls.push({
        id: block.id,
        type: "function",
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
  }
  const message: Record<string, unknown> = {
    role: "assistant",
    content: texts.length > 0 ? texts.join("") : null,
    refusal: null,
  };
  if (calls.length > 0) message.tool_calls = calls;
  const annotations = blockCitations(blocks);
  if (annotations.length > 0) message.annotations = annotations;
  if (reasoning.length > 0) message.reasoning = reasoning.join("");
  if (details.length > 0) message.reasoning_details = details;
  return message;
}

function reasoningDetail(type: string, fields: Record<string, unknown>): Record<string, unknown> {
  return { type, ...fields, format: ANTHROPIC_REASONING_FORMAT, index: 0 };
}

/** A Messages API response as a canonical chat completion. */
export function completionFromAnthropic(message: Record<string, unknown>): CompletionWire {
  const blocks = Array.isArray(message.content) ? (message.content as Block[]) : [];
  const stopReason = typeof message.stop_reason === "string" ? message.stop_reason : null;
  const usage = usageFromAnthropic(message.usage as AnthropicUsageWire | undefined);
  return {
    id: typeof message.id === "string" ? message.id : undefined,
    object: "chat.completion",
    choices: [
      {
        index: 0,
        message: messageFromBlocks(blocks),
        logprobs: null,
        finish_reason: openAiFinishReason(stopReason),
      },
    ],
    ...(usage ? { usage: usageToWire(usage) } : {}),
  };
}
