// Request parameters each endpoint accepts, named as in the OpenAI-shaped request (the spec's
// `supported_parameters`); the planner uses them for `provider.require_parameters`.

const COMMON_CHAT = ["max_tokens", "temperature", "top_p", "stop", "stream"] as const;

export const OPENAI_CHAT: readonly string[] = [
  ...COMMON_CHAT,
  "frequency_penalty",
  "presence_penalty",
  "seed",
  "logit_bias",
  "logprobs",
  "top_logprobs",
  "response_format",
  "structured_outputs",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
];

export const ANTHROPIC_CHAT: readonly string[] = [...COMMON_CHAT, "top_k", "tools", "tool_choice"];

/** Anthropic models with extended thinking also take the reasoning controls. */
export const ANTHROPIC_REASONING_CHAT: readonly string[] = [
  ...ANTHROPIC_CHAT,
  "reasoning",
  "include_reasoning",
];

export const GEMINI_CHAT: readonly string[] = [
  ...COMMON_CHAT,
  "top_k",
  "seed",
  "frequency_penalty",
  "presence_penalty",
  "response_format",
  "structured_outputs",
  "tools",
  "tool_choice",
  "reasoning",
  "include_reasoning",
];

/** What OpenAI-compatible open-weight hosts generally accept for Llama-class chat models. */
export const OPEN_WEIGHTS_CHAT: readonly string[] = [
  ...COMMON_CHAT,
  "frequency_penalty",
  "presence_penalty",
  "seed",
  "response_format",
  "tools",
  "tool_choice",
];

export const OPENAI_EMBEDDING: readonly string[] = ["dimensions", "encoding_format"];
export const GEMINI_EMBEDDING: readonly string[] = ["dimensions"];
