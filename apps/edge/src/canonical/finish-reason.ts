export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "error";

// Native reasons of the three wire formats and common OpenAI-compatible hosts (wire-formats §4.5).
const NATIVE: Record<string, FinishReason> = {
  stop: "stop",
  eos: "stop",
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  length: "length",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_calls: "tool_calls",
  function_call: "tool_calls",
  tool_use: "tool_calls",
  content_filter: "content_filter",
  refusal: "content_filter",
  safety: "content_filter",
  recitation: "content_filter",
  blocklist: "content_filter",
  prohibited_content: "content_filter",
  spii: "content_filter",
  error: "error",
};

/**
 * Maps a provider's finish reason to the gateway's five. An unknown non-empty reason is still a
 * finished generation, so it counts as `stop`; no reason at all is undefined and the caller decides
 * (a completed call is `stop`, a broken one `error`).
 */
export function normaliseFinishReason(native: string | null | undefined): FinishReason | undefined {
  if (!native) return undefined;
  const key = native.toLowerCase();
  if (key.startsWith("image_")) return "content_filter";
  return NATIVE[key] ?? "stop";
}
