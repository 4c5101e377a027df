import type { Pico } from "@gw/money";
import type { Endpoint, Model, Pricing } from "@gw/proto/catalog/v1/catalog";
import { modelInputModalities } from "./modalities.js";

/**
 * OpenRouter's model object (its `GET /api/v1/models` element, as `@openrouter/sdk` 1.3 parses it), plus
 * OpenAI's `object` and `owned_by` so that OpenAI's SDK reads the same list. Prices are decimal strings of
 * USD per token, per request and per image, as OpenRouter sends them; "0" where the endpoint has no such charge.
 */
export interface OpenRouterModel {
  id: string;
  canonical_slug: string;
  object: "model";
  owned_by: string;
  name: string;
  created: number;
  description: string;
  context_length: number;
  architecture: ModelArchitecture;
  pricing: PriceStrings;
  top_provider: { context_length: number; max_completion_tokens: number | null; is_moderated: boolean };
  per_request_limits: null;
  supported_parameters: string[];
  default_parameters: null;
  supported_voices: null;
  links: { details: string };
}

export interface ModelArchitecture {
  modality: string;
  input_modalities: string[];
  output_modalities: string[];
  tokenizer: string;
  instruct_type: null;
}

export interface PriceStrings {
  prompt: string;
  completion: string;
  request: string;
  image: string;
  input_cache_read: string;
  input_cache_write: string;
  internal_reasoning: string;
  /** Per input audio token, only where audio is priced apart from text (OpenRouter's `audio`). */
  audio?: string;
}

/** OpenRouter's list envelope: `total_count` and `links.next` (null: the whole list is one page). */
export interface OpenRouterModelList {
  object: "list";
  data: OpenRouterModel[];
  total_count: number;
  links: { next: null };
}

export function modelList(data: OpenRouterModel[]): OpenRouterModelList {
  return { object: "list", data, total_count: data.length, links: { next: null } };
}

/**
 * A model as the lists show it, over the endpoints the caller may use (all of them on the public list):
 * the first of `endpoints` is the one whose price and limits are shown (OpenRouter's "top provider"), the
 * supported parameters are every endpoint's. The catalogue holds no moderation, default sampling
 * parameters or per-request limits, so those are OpenRouter's "none" (false, null, null).
 */
export function openRouterModel(model: Model, endpoints: readonly Endpoint[]): OpenRouterModel {
  const top = endpoints[0];
  return {
    id: model.id,
    canonical_slug: model.id,
    object: "model",
    owned_by: model.author,
    name: model.name,
    created: Number(model.createdUnix),
    description: `${model.name}, ${model.kind === "embedding" ? "an embedding" : "a chat"} model by ${model.author}.`,
    context_length: model.contextLength,
    architecture: architecture(model, endpoints),
    pricing: priceStrings(top?.pricing),
    top_provider: {
      context_length: top?.contextLength ?? model.contextLength,
      // Embedding endpoints produce no completion tokens: 0 in the catalogue, null (no limit) for OpenRouter.
      max_completion_tokens: top && top.maxCompletionTokens > 0 ? top.maxCompletionTokens : null,
      is_moderated: false,
    },
    per_request_limits: null,
    supported_parameters: [...new Set(endpoints.flatMap((endpoint) => endpoint.supportedParameters))].sort(),
    default_parameters: null,
    supported_voices: null,
    links: { details: `/api/v1/models/${model.id}/endpoints` },
  };
}

function architecture(model: Model, endpoints: readonly Endpoint[]): ModelArchitecture {
  // What any endpoint shown reads (the catalogue's per-endpoint modalities, from LiteLLM's supports_* flags).
  const input = [...modelInputModalities(endpoints)];
  const output = model.kind === "embedding" ? ["embeddings"] : ["text"];
  return {
    modality: `${input.join("+")}->${output.join("+")}`,
    input_modalities: input,
    output_modalities: output,
    tokenizer: TOKENIZERS[model.author] ?? "Other",
    instruct_type: null,
  };
}

/** OpenRouter's tokenizer groups (its `ModelGroup`) by model author. */
const TOKENIZERS: Readonly<Record<string, string>> = {
  openai: "GPT",
  anthropic: "Claude",
  google: "Gemini",
  "meta-llama": "Llama3",
  mistralai: "Mistral",
  qwen: "Qwen",
  deepseek: "DeepSeek",
  "x-ai": "Grok",
  cohere: "Cohere",
};

export function priceStrings(pricing: Pricing | undefined): PriceStrings {
  return {
    prompt: priceString(pricing?.promptPico ?? 0n),
    completion: priceString(pricing?.completionPico ?? 0n),
    request: priceString(pricing?.requestPico ?? 0n),
    image: priceString(pricing?.imagePico ?? 0n),
    input_cache_read: priceString(pricing?.cacheReadPico ?? 0n),
    input_cache_write: priceString(pricing?.cacheWritePico ?? 0n),
    internal_reasoning: priceString(pricing?.reasoningPico ?? 0n),
    ...((pricing?.audioPico ?? 0n) > 0n ? { audio: priceString(pricing?.audioPico ?? 0n) } : {}),
  };
}

const PICO_PER_USD = 1_000_000_000_000n;

/** Exact decimal USD without trailing zeros: 150_000n → "0.00000015", 0n → "0". Prices are never negative. */
export function priceString(pico: Pico): string {
  const whole = pico / PICO_PER_USD;
  const fraction = (pico % PICO_PER_USD).toString().padStart(12, "0").replace(/0+$/, "");
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`;
}
