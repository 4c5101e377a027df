import { endpointInputModalities } from "@gw/catalog";
import { picoToUsdNumber } from "@gw/money";
import type { Endpoint, Model, Pricing } from "@gw/proto/catalog/v1/catalog";
import type { EndpointHealth } from "@gw/proto/generations/v1/health";

export interface PricingJson {
  prompt: number;
  completion: number;
  request: number;
  image: number;
  input_cache_read: number;
  input_cache_write: number;
  internal_reasoning: number;
  /** Per input audio token, only where audio is priced apart from text. */
  audio?: number;
}

/**
 * Prices are USD per token (not per 1k or 1M), per request and per image; the cache and reasoning
 * prices under the names the model list's pricing uses (OpenRouter's), 0 where the provider lists none.
 */
export function pricingJson(pricing: Pricing | undefined): PricingJson {
  return {
    prompt: picoToUsdNumber(pricing?.promptPico ?? 0n),
    completion: picoToUsdNumber(pricing?.completionPico ?? 0n),
    request: picoToUsdNumber(pricing?.requestPico ?? 0n),
    image: picoToUsdNumber(pricing?.imagePico ?? 0n),
    input_cache_read: picoToUsdNumber(pricing?.cacheReadPico ?? 0n),
    input_cache_write: picoToUsdNumber(pricing?.cacheWritePico ?? 0n),
    internal_reasoning: picoToUsdNumber(pricing?.reasoningPico ?? 0n),
    ...((pricing?.audioPico ?? 0n) > 0n ? { audio: picoToUsdNumber(pricing?.audioPico ?? 0n) } : {}),
  };
}

export interface EndpointJson {
  provider_id: string;
  provider_name: string;
  model: string;
  context_length: number;
  max_completion_tokens: number;
  pricing: PricingJson;
  quantization: string | null;
  is_zdr: boolean;
  supported_parameters: string[];
  /** What the endpoint's model reads (OpenRouter's input_modalities names). */
  input_modalities: string[];
  status: number | null;
  uptime_last_30m: number | null;
  latency_last_30m: { p50: number; p90: number; p99: number } | null;
  throughput_last_30m: number | null;
}

// OpenRouter's endpoint status: 0 is normal, negative is worse.
const STATUS_CODES: Readonly<Record<string, number>> = { ok: 0, degraded: -1, down: -2 };

/**
 * One provider endpoint of a model, with its measured health over the last 30 minutes (the generations
 * app's figures, the same every edge routes on): status 0 ok, -1 degraded, -2 down; uptime in
 * percent of attempts the provider served; time to first token p50/p90/p99 in ms; throughput p50 in
 * output tokens per second. A figure with no data yet is null, never a made-up number.
 */
export function endpointJson(
  model: Model,
  endpoint: Endpoint,
  providerName: string,
  health: EndpointHealth | undefined,
): EndpointJson {
  return {
    provider_id: endpoint.providerId,
    provider_name: providerName,
    model: model.id,
    context_length: endpoint.contextLength,
    max_completion_tokens: endpoint.maxCompletionTokens,
    pricing: pricingJson(endpoint.pricing),
    quantization: endpoint.quantization === "" ? null : endpoint.quantization,
    is_zdr: endpoint.isZdr,
    supported_parameters: endpoint.supportedParameters,
    input_modalities: [...endpointInputModalities(endpoint)],
    status: health ? (STATUS_CODES[health.status] ?? null) : null,
    uptime_last_30m: health ? Math.round(health.uptime * 10_000) / 100 : null,
    latency_last_30m: health?.latencyMs
      ? { p50: health.latencyMs.p50, p90: health.latencyMs.p90, p99: health.latencyMs.p99 }
      : null,
    throughput_last_30m: health?.throughput ? health.throughput.p50 : null,
  };
}
