import type { ProviderError } from "../core/server.js";

// The request bodies' top-level fields as OpenAI's API reference lists them. The API refuses anything
// else with 400 `Unrecognized request argument supplied: <name>` (type invalid_request_error, param and
// code null), the answer clients see for e.g. `top_k` or `reasoning_effort` sent to a model without it.
// Sources: https://platform.openai.com/docs/api-reference/chat/create and
// https://platform.openai.com/docs/api-reference/embeddings/create; the error as reported in
// github.com/xlinx/sd-webui-decadetw-auto-prompt-llm/issues/29 and github.com/coroot/coroot/issues/698.

export const CHAT_FIELDS: ReadonlySet<string> = new Set([
  "model",
  "messages",
  "audio",
  "frequency_penalty",
  "function_call",
  "functions",
  "logit_bias",
  "logprobs",
  "max_completion_tokens",
  "max_tokens",
  "metadata",
  "modalities",
  "n",
  "parallel_tool_calls",
  "prediction",
  "presence_penalty",
  "prompt_cache_key",
  "prompt_cache_retention",
  "reasoning_effort",
  "response_format",
  "safety_identifier",
  "seed",
  "service_tier",
  "stop",
  "store",
  "stream",
  "stream_options",
  "temperature",
  "tool_choice",
  "tools",
  "top_logprobs",
  "top_p",
  "user",
  "verbosity",
  "web_search_options",
]);

export const EMBEDDING_FIELDS: ReadonlySet<string> = new Set([
  "model",
  "input",
  "dimensions",
  "encoding_format",
  "user",
]);

/** OpenAI's refusal of top-level fields its API does not have, or null when there are none. */
export function unrecognizedArguments(
  body: Record<string, unknown>,
  allowed: ReadonlySet<string>,
): ProviderError | null {
  const unknown = Object.keys(body).filter((key) => !allowed.has(key));
  if (unknown.length === 0) return null;
  const noun = unknown.length === 1 ? "argument" : "arguments";
  return { status: 400, message: `Unrecognized request ${noun} supplied: ${unknown.join(", ")}` };
}
