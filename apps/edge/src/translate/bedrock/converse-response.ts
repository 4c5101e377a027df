import type { TokenUsage } from "../../canonical/tokens.js";
import { type CompletionWire, usageToWire } from "../../canonical/wire.js";

type Json = Record<string, unknown>;

/** Converse's `TokenUsage` (API reference): `inputTokens` excludes the cache's reads and writes. */
export interface ConverseUsageWire {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
}

/** Converse stop reasons (API reference, ConverseResponse.stopReason) → OpenAI finish reasons. */
const FINISH: Readonly<Record<string, string>> = {
  end_turn: "stop",
  stop_sequence: "stop",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_use: "tool_calls",
  guardrail_intervened: "content_filter",
  content_filtered: "content_filter",
};

export function finishFromConverse(stopReason: unknown): string | null {
  if (typeof stopReason !== "string") return null;
  return FINISH[stopReason] ?? "stop";
}

/** The canonical count includes cached reads and writes in the prompt, as OpenAI's does. */
export function usageFromConverse(wire: ConverseUsageWire | undefined): TokenUsage | undefined {
  if (!wire || typeof wire.inputTokens !== "number" || typeof wire.outputTokens !== "number")
    return undefined;
  const cachedTokens = wire.cacheReadInputTokens ?? 0;
  const cacheWriteTokens = wire.cacheWriteInputTokens ?? 0;
  return {
    promptTokens: wire.inputTokens + cachedTokens + cacheWriteTokens,
    completionTokens: wire.outputTokens,
    cachedTokens,
    cacheWriteTokens,
    reasoningTokens: 0,
  };
}

/** A Converse response's assistant message as a canonical chat completion. */
export function completionFromConverse(response: Json, requestId: string | undefined): CompletionWire {
  const message = (response.output as Json | undefined)?.message as Json | undefined;
  const blocks = Array.isArray(message?.content) ? (message.content as Json[]) : [];
  const text = blocks.flatMap((block) => (typeof block.text === "string" ? [block.text] : [])).join("");
  const toolCalls = blocks.flatMap((block) => {
    const use = block.toolUse as Json | undefined;
    if (!use) return [];
    return [
      {
        id: String(use.toolUseId ?? ""),
        type: "function",
        function: { name: String(use.name ?? ""), arguments: JSON.stringify(use.input ?? {}) },
      },
    ];
  });
  const usage = usageFromConverse(response.usage as ConverseUsageWire | undefined);
  return {
    id: requestId,
    object: "chat.completion",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: text.length > 0 || toolCalls.length === 0 ? text : null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finishFromConverse(response.stopReason),
      },
    ],
    ...(usage ? { usage: usageToWire(usage) } : {}),
  };
}
