import type { ChatRequest } from "./chat-request.js";

// Request fields that name a capability an endpoint may lack, spelled as in the catalogue's
// `supported_parameters`. Only these take part in `provider.require_parameters`.
const CAPABILITY_FIELDS: Readonly<Record<string, string>> = {
  max_tokens: "max_tokens",
  max_completion_tokens: "max_tokens",
  temperature: "temperature",
  top_p: "top_p",
  top_k: "top_k",
  stop: "stop",
  seed: "seed",
  frequency_penalty: "frequency_penalty",
  presence_penalty: "presence_penalty",
  logit_bias: "logit_bias",
  logprobs: "logprobs",
  top_logprobs: "top_logprobs",
  response_format: "response_format",
  tools: "tools",
  tool_choice: "tool_choice",
  parallel_tool_calls: "parallel_tool_calls",
  reasoning: "reasoning",
  include_reasoning: "include_reasoning",
};

/** The capabilities a request relies on, for `provider.require_parameters`. */
export function requestedParameters(request: ChatRequest): string[] {
  const names = new Set<string>();
  for (const [field, value] of Object.entries(request)) {
    const capability = CAPABILITY_FIELDS[field];
    if (capability && value !== undefined && value !== null) names.add(capability);
  }
  const format = request.response_format;
  if (typeof format === "object" && format !== null && "type" in format && format.type === "json_schema") {
    names.add("structured_outputs");
  }
  return [...names];
}
