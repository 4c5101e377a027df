import type { CloudEndpoint } from "./cloud.js";
import { ANTHROPIC_REASONING_CHAT } from "./parameters.js";

// Source of context, output cap and prices (USD per MTok, cache read and 5-minute cache write included):
// LiteLLM's price file of 2026-07-24 (shared/reference/catalog/litellm-model-prices-full-2026-07-24.json),
// keys named beside each endpoint. Claude 3.7 and every Claude 4 model are served on demand only through
// an inference profile, so those endpoints use the US geographic profile (`us.…`) and its prices (10%
// above the in-region list price for the models released since Sonnet 4.5); Claude 3.x Haiku uses the
// foundation model id. Open-weight models on Bedrock (Llama, Mistral, Qwen, gpt-oss through Converse)
// are in bedrock-converse.ts; the importer's Bedrock keys add others. An operator serving another region or a deployment of their own overrides
// the endpoint's upstream model with an ARN (`arn:aws:bedrock:<region>:…`), which names its region.
//
// Data policy: AWS's Bedrock data-protection and data-retention pages
// (docs.aws.amazon.com/bedrock/latest/userguide/data-protection.html and …/data-retention.html, read
// 2026-11-27): Bedrock does not store or log prompts and completions, does not use them to train any
// model, and does not share them with the model provider; the retention modes added with Claude Fable 5
// leave Claude models released before it unchanged ("if ZDR applied previously, ZDR still applies"). So
// each endpoint here is zero-data-retention and never trains on prompts. Quantization: AWS publishes
// none, so it stays unknown (null).
//
// Sonnet 4's 1M context on Bedrock needs Anthropic's context-1m beta, which the gateway does not send, so
// its endpoint keeps the 200,000 its Anthropic endpoint has where the file lists 1,000,000.

/** The catalogue's Claude models' Bedrock endpoints (added by withCloudEndpoints, cloud.ts). */
export const BEDROCK_ENDPOINTS: readonly CloudEndpoint[] = [
  // us.anthropic.claude-sonnet-4-20250514-v1:0
  claude(
    "anthropic/claude-sonnet-4",
    "us.anthropic.claude-sonnet-4-20250514-v1:0",
    200_000,
    64_000,
    "3",
    "15",
    "0.30",
    "3.75",
  ),
  // anthropic.claude-3-5-haiku-20241022-v1:0
  claude(
    "anthropic/claude-3-5-haiku",
    "anthropic.claude-3-5-haiku-20241022-v1:0",
    200_000,
    8_192,
    "0.80",
    "4",
    "0.08",
    "1",
  ),
  // anthropic.claude-3-haiku-20240307-v1:0
  claude(
    "anthropic/claude-3-haiku",
    "anthropic.claude-3-haiku-20240307-v1:0",
    200_000,
    4_096,
    "0.25",
    "1.25",
    "0.025",
    "0.3125",
  ),
  // us.anthropic.claude-3-7-sonnet-20250219-v1:0
  claude(
    "anthropic/claude-3-7-sonnet",
    "us.anthropic.claude-3-7-sonnet-20250219-v1:0",
    200_000,
    8_192,
    "3",
    "15",
    "0.30",
    "3.75",
  ),
  // us.anthropic.claude-opus-4-20250514-v1:0
  claude(
    "anthropic/claude-opus-4",
    "us.anthropic.claude-opus-4-20250514-v1:0",
    200_000,
    32_000,
    "15",
    "75",
    "1.50",
    "18.75",
  ),
  // us.anthropic.claude-opus-4-1-20250805-v1:0
  claude(
    "anthropic/claude-opus-4-1",
    "us.anthropic.claude-opus-4-1-20250805-v1:0",
    200_000,
    32_000,
    "15",
    "75",
    "1.50",
    "18.75",
  ),
  // us.anthropic.claude-sonnet-4-5-20250929-v1:0
  claude(
    "anthropic/claude-sonnet-4-5",
    "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    200_000,
    64_000,
    "3.30",
    "16.50",
    "0.33",
    "4.125",
  ),
  // us.anthropic.claude-haiku-4-5-20251001-v1:0
  claude(
    "anthropic/claude-haiku-4-5",
    "us.anthropic.claude-haiku-4-5-20251001-v1:0",
    200_000,
    64_000,
    "1.10",
    "5.50",
    "0.11",
    "1.375",
  ),
  // us.anthropic.claude-opus-4-5-20251101-v1:0
  claude(
    "anthropic/claude-opus-4-5",
    "us.anthropic.claude-opus-4-5-20251101-v1:0",
    200_000,
    64_000,
    "5.50",
    "27.50",
    "0.55",
    "6.875",
  ),
  // us.anthropic.claude-sonnet-4-6
  claude(
    "anthropic/claude-sonnet-4-6",
    "us.anthropic.claude-sonnet-4-6",
    1_000_000,
    64_000,
    "3.30",
    "16.50",
    "0.33",
    "4.125",
  ),
  // us.anthropic.claude-opus-4-6-v1
  claude(
    "anthropic/claude-opus-4-6",
    "us.anthropic.claude-opus-4-6-v1",
    1_000_000,
    128_000,
    "5.50",
    "27.50",
    "0.55",
    "6.875",
  ),
  // us.anthropic.claude-opus-4-7
  claude(
    "anthropic/claude-opus-4-7",
    "us.anthropic.claude-opus-4-7",
    1_000_000,
    128_000,
    "5.50",
    "27.50",
    "0.55",
    "6.875",
  ),
  // us.anthropic.claude-opus-4-8
  claude(
    "anthropic/claude-opus-4-8",
    "us.anthropic.claude-opus-4-8",
    1_000_000,
    128_000,
    "5.50",
    "27.50",
    "0.55",
    "6.875",
  ),
];

// Thinking tokens are billed as output on Bedrock as on Anthropic's API; Claude on Bedrock takes Anthropic's
// Messages body (InvokeModel), so its parameters are Anthropic's.
function claude(
  modelId: string,
  upstream: string,
  context: number,
  output: number,
  prompt: string,
  completion: string,
  cacheRead: string,
  cacheWrite: string,
): CloudEndpoint {
  return {
    modelId,
    providerId: "amazon-bedrock",
    upstream,
    context,
    output,
    price: { prompt, completion, cacheRead, cacheWrite, reasoning: completion },
    isZdr: true,
    supportedParameters: ANTHROPIC_REASONING_CHAT,
  };
}
