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
  reasoning_effort: "reasoning",
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

// Only parameters that tune how an answer is sampled may be dropped for an endpoint that does not list
// them. Tools, tool choice, an answer format, stop sequences and the output cap decide what the answer
// is: they are always sent, and a host that cannot honour them says so itself.
const DROPPABLE = new Set([
  "temperature",
  "top_p",
  "top_k",
  "seed",
  "frequency_penalty",
  "presence_penalty",
  "logit_bias",
  "logprobs",
  "top_logprobs",
  "parallel_tool_calls",
  "reasoning",
  "include_reasoning",
]);

/**
 * The sampling parameters of a request an endpoint does not list in `supported_parameters`: they are
 * dropped for that endpoint, as OpenRouter does ("If the chosen provider doesn't support a parameter, it
 * is ignored", provider routing docs), unless `provider.require_parameters` excluded the endpoint first.
 * Fields that name no capability (unknown ones) are the provider's to judge.
 */
export function unsupportedFields(request: ChatRequest, supported: readonly string[]): string[] {
  return Object.entries(request)
    .filter(([field, value]) => {
      const capability = CAPABILITY_FIELDS[field];
      return (
        capability !== undefined &&
        DROPPABLE.has(capability) &&
        value !== undefined &&
        value !== null &&
        !supported.includes(capability)
      );
    })
    .map(([field]) => field);
}

/** The request without the fields `unsupportedFields` names (a copy; the caller's request is shared by attempts). */
export function withoutFields(request: ChatRequest, fields: readonly string[]): ChatRequest {
  if (fields.length === 0) return request;
  const copy: ChatRequest = { ...request };
  for (const field of fields) delete copy[field];
  return copy;
}
