import type { CloudEndpoint } from "./cloud.js";

// Open-weight models on Amazon Bedrock, served through the Converse API (the adapter's path for every
// model that is not Anthropic's). Context, output cap and USD per MTok from LiteLLM's price file of
// 2026-07-24 (shared/reference/catalog/litellm-model-prices-full-2026-07-24.json), key named beside each
// endpoint and copied into bedrock-litellm-entries.json for the test; the file lists no cache prices for
// them. Llama 3.3 and Llama 4 are served on demand only through the US inference profile (`us.…`).
//
// Data policy: Bedrock's, as for Claude (bedrock.ts): no prompts or completions stored or logged, none used
// for training or shared with the model's provider, so each endpoint is zero-data-retention. AWS publishes
// no quantization for them (null).
//
// Parameters: what Converse carries across models (maxTokens, temperature, topP, stopSequences, tools;
// translate/bedrock/converse-request.ts refuses top_k, reasoning and response_format by name), with
// tool_choice only where the file says the model takes it (not Meta's: `supports_tool_choice: false`).

const CONVERSE_CHAT = ["max_tokens", "temperature", "top_p", "stop", "stream", "tools"] as const;
const WITH_TOOL_CHOICE = [...CONVERSE_CHAT, "tool_choice"] as const;

export const BEDROCK_CONVERSE_ENDPOINTS: readonly CloudEndpoint[] = [
  // us.meta.llama3-3-70b-instruct-v1:0
  open(
    "meta-llama/llama-3.3-70b-instruct",
    "us.meta.llama3-3-70b-instruct-v1:0",
    128_000,
    4_096,
    "0.72",
    "0.72",
    CONVERSE_CHAT,
  ),
  // us.meta.llama4-maverick-17b-instruct-v1:0
  open(
    "meta-llama/llama-4-maverick",
    "us.meta.llama4-maverick-17b-instruct-v1:0",
    128_000,
    4_096,
    "0.24",
    "0.97",
    CONVERSE_CHAT,
  ),
  // mistral.mistral-large-3-675b-instruct (Mistral Large 3, released as mistral-large-2512)
  open(
    "mistralai/mistral-large-2512",
    "mistral.mistral-large-3-675b-instruct",
    128_000,
    8_192,
    "0.50",
    "1.50",
    CONVERSE_CHAT,
  ),
  // openai.gpt-oss-120b-1:0
  open("openai/gpt-oss-120b", "openai.gpt-oss-120b-1:0", 128_000, 128_000, "0.15", "0.60", WITH_TOOL_CHOICE),
  // qwen.qwen3-32b-v1:0
  open("qwen/qwen3-32b", "qwen.qwen3-32b-v1:0", 131_072, 16_384, "0.15", "0.60", WITH_TOOL_CHOICE),
  // qwen.qwen3-235b-a22b-2507-v1:0
  open(
    "qwen/qwen3-235b-a22b-2507",
    "qwen.qwen3-235b-a22b-2507-v1:0",
    262_144,
    131_072,
    "0.22",
    "0.88",
    WITH_TOOL_CHOICE,
  ),
];

function open(
  modelId: string,
  upstream: string,
  context: number,
  output: number,
  prompt: string,
  completion: string,
  parameters: readonly string[],
): CloudEndpoint {
  return {
    modelId,
    providerId: "amazon-bedrock",
    upstream,
    context,
    output,
    price: { prompt, completion },
    isZdr: true,
    supportedParameters: parameters,
  };
}
