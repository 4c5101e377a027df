import { listPrice } from "../pricing.js";
import type { Endpoint, Model } from "../types.js";
import { endpoint } from "./build.js";
import { ANTHROPIC_REASONING_CHAT, CONVERSE_CHAT } from "./parameters.js";

// Source of context, output cap and prices (USD per MTok, cache read and 5-minute cache write included):
// LiteLLM's price file of 2026-07-24 (shared/reference/catalog/litellm-model-prices-full-2026-07-24.json),
// keys named beside each endpoint. Claude 3.7 and every Claude 4 model are served on demand only through
// an inference profile, so those endpoints use the US geographic profile (`us.…`) and its prices (10%
// above the in-region list price for the models released since Sonnet 4.5); Claude 3.x Haiku uses the
// foundation model id. Open-weight models on Bedrock (Llama, Mistral, Qwen, gpt-oss through Converse)
// are left to the catalogue importer's Bedrock keys; the adapter serves them as it serves any Converse model. An operator serving another region or a deployment of their own overrides
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

const BEDROCK = "amazon-bedrock";

interface BedrockLine {
  readonly upstreamModel: string;
  readonly contextLength: number;
  readonly maxCompletionTokens: number;
  readonly price: { prompt: string; completion: string; cacheRead?: string; cacheWrite?: string };
  readonly claude: boolean;
}

/** The catalogue's model id → its Bedrock endpoint. */
const LINES: Readonly<Record<string, BedrockLine>> = {
  // us.anthropic.claude-sonnet-4-20250514-v1:0
  "anthropic/claude-sonnet-4": claude(
    "us.anthropic.claude-sonnet-4-20250514-v1:0",
    200_000,
    64_000,
    "3",
    "15",
    "0.30",
    "3.75",
  ),
  // anthropic.claude-3-5-haiku-20241022-v1:0
  "anthropic/claude-3-5-haiku": claude(
    "anthropic.claude-3-5-haiku-20241022-v1:0",
    200_000,
    8_192,
    "0.80",
    "4",
    "0.08",
    "1",
  ),
  // anthropic.claude-3-haiku-20240307-v1:0
  "anthropic/claude-3-haiku": claude(
    "anthropic.claude-3-haiku-20240307-v1:0",
    200_000,
    4_096,
    "0.25",
    "1.25",
    "0.025",
    "0.3125",
  ),
  // us.anthropic.claude-3-7-sonnet-20250219-v1:0
  "anthropic/claude-3-7-sonnet": claude(
    "us.anthropic.claude-3-7-sonnet-20250219-v1:0",
    200_000,
    8_192,
    "3",
    "15",
    "0.30",
    "3.75",
  ),
  // us.anthropic.claude-opus-4-20250514-v1:0
  "anthropic/claude-opus-4": claude(
    "us.anthropic.claude-opus-4-20250514-v1:0",
    200_000,
    32_000,
    "15",
    "75",
    "1.50",
    "18.75",
  ),
  // us.anthropic.claude-opus-4-1-20250805-v1:0
  "anthropic/claude-opus-4-1": claude(
    "us.anthropic.claude-opus-4-1-20250805-v1:0",
    200_000,
    32_000,
    "15",
    "75",
    "1.50",
    "18.75",
  ),
  // us.anthropic.claude-sonnet-4-5-20250929-v1:0
  "anthropic/claude-sonnet-4-5": claude(
    "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    200_000,
    64_000,
    "3.30",
    "16.50",
    "0.33",
    "4.125",
  ),
  // us.anthropic.claude-haiku-4-5-20251001-v1:0
  "anthropic/claude-haiku-4-5": claude(
    "us.anthropic.claude-haiku-4-5-20251001-v1:0",
    200_000,
    64_000,
    "1.10",
    "5.50",
    "0.11",
    "1.375",
  ),
  // us.anthropic.claude-opus-4-5-20251101-v1:0
  "anthropic/claude-opus-4-5": claude(
    "us.anthropic.claude-opus-4-5-20251101-v1:0",
    200_000,
    64_000,
    "5.50",
    "27.50",
    "0.55",
    "6.875",
  ),
  // us.anthropic.claude-sonnet-4-6
  "anthropic/claude-sonnet-4-6": claude(
    "us.anthropic.claude-sonnet-4-6",
    1_000_000,
    64_000,
    "3.30",
    "16.50",
    "0.33",
    "4.125",
  ),
  // us.anthropic.claude-opus-4-6-v1
  "anthropic/claude-opus-4-6": claude(
    "us.anthropic.claude-opus-4-6-v1",
    1_000_000,
    128_000,
    "5.50",
    "27.50",
    "0.55",
    "6.875",
  ),
  // us.anthropic.claude-opus-4-7
  "anthropic/claude-opus-4-7": claude(
    "us.anthropic.claude-opus-4-7",
    1_000_000,
    128_000,
    "5.50",
    "27.50",
    "0.55",
    "6.875",
  ),
  // us.anthropic.claude-opus-4-8
  "anthropic/claude-opus-4-8": claude(
    "us.anthropic.claude-opus-4-8",
    1_000_000,
    128_000,
    "5.50",
    "27.50",
    "0.55",
    "6.875",
  ),
};

function claude(
  upstreamModel: string,
  contextLength: number,
  maxCompletionTokens: number,
  prompt: string,
  completion: string,
  cacheRead: string,
  cacheWrite: string,
): BedrockLine {
  return {
    upstreamModel,
    contextLength,
    maxCompletionTokens,
    price: { prompt, completion, cacheRead, cacheWrite },
    claude: true,
  };
}

function bedrockEndpoint(line: BedrockLine): Endpoint {
  return endpoint({
    providerId: BEDROCK,
    upstreamModel: line.upstreamModel,
    contextLength: line.contextLength,
    maxCompletionTokens: line.maxCompletionTokens,
    // Thinking tokens are billed as output on Bedrock as on Anthropic's API.
    pricing: listPrice(line.claude ? { ...line.price, reasoning: line.price.completion } : line.price),
    isZdr: true,
    mayTrainOnData: false,
    supportedParameters: line.claude ? ANTHROPIC_REASONING_CHAT : CONVERSE_CHAT,
  });
}

/** The models with their Bedrock endpoint added after their existing ones (a model absent here is unchanged). */
export function withBedrock(models: readonly Model[]): Model[] {
  return models.map((model) => {
    const line = LINES[model.id];
    if (!line || model.endpoints.some((e) => e.providerId === BEDROCK)) return model;
    return { ...model, endpoints: [...model.endpoints, bedrockEndpoint(line)] };
  });
}

/** How many catalogue models the bundled Bedrock lines cover (the seed test holds it). */
export const BEDROCK_MODEL_IDS: readonly string[] = Object.keys(LINES);
