import { picoToUsdNumber, usdToPico } from "@gw/money";
import { originOf } from "../activity/record.js";
import type { AttemptRecord } from "../db/schema.js";
import type { GenerationRow } from "./usage-row.js";

/** `GET /api/v1/generation` data: the spec's Generation fields plus the decisions' extras. */
export type GenerationJson = {
  id: string;
  model: string;
  provider: string;
  created_at: string;
  latency_ms: number;
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    cost: number;
    is_byok: boolean;
    estimated: boolean;
    /** Media counts (as the answer's usage shows them) only where the provider reported any. */
    prompt_tokens_details: {
      cached_tokens: number;
      cache_write_tokens: number;
      audio_tokens?: number;
      image_tokens?: number;
      document_tokens?: number;
    };
    completion_tokens_details: { reasoning_tokens: number; audio_tokens?: number };
    cost_details: {
      upstream_inference_cost: number;
      upstream_inference_prompt_cost: number;
      upstream_inference_completions_cost: number;
      upstream_inference_audio_cost?: number;
      upstream_inference_image_cost?: number;
      /** The web plugin's searches (beside the upstream cost, in `cost`); only when one was billed. */
      upstream_inference_web_search_cost?: number;
    };
  };
  api_type: string;
  streamed: boolean;
  cancelled: boolean;
  finish_reason: string | null;
  native_finish_reason: string | null;
  upstream_id: string | null;
  generation_time_ms: number;
  key_hash: string;
  attempts: AttemptRecord[];
  /** Why a failed generation failed, as the client was told; null when it did not fail (or was cancelled). */
  error: GenerationError | null;
} & OpenRouterFlatFields &
  OpenRouterCallerFields;

/** A failed generation's error: `code` is the HTTP status the client got, `reason` the gateway's code. */
export interface GenerationError {
  code: number;
  reason: string | null;
  message: string;
}

/**
 * The rest of OpenRouter's `GenerationResponseData` (what @openrouter/sdk's schema requires): what the
 * gateway knows, and null (which the schema allows) for features it does not have.
 */
export interface OpenRouterCallerFields {
  /** The gateway routes in one region: "global" (as the key's `allowed_data_regions` says). */
  data_region: "global";
  /** The request's `user`. */
  external_user: string | null;
  /** The caller's User-Agent header. */
  user_agent: string | null;
  /** The account (as on the key object). */
  workspace_id: string;
  /** One per attempt, fallbacks included: OpenRouter's ProviderResponse. */
  provider_responses: ProviderResponse[];
  // No moderation, presets, web fetch plugin, auto-router or service tiers; media and audio inputs and
  // image outputs are not counted per generation: null, not a guessed 0.
  moderation_latency: null;
  native_tokens_completion_images: null;
  num_fetches: null;
  num_input_audio_prompt: null;
  num_media_completion: null;
  num_media_prompt: null;
  /** The web plugin's billed searches (native) or results (exa); null without a billed search. */
  num_search_results: number | null;
  preset_id: null;
  router: null;
  service_tier: null;
  /** "native" (the provider's own search) or "exa" (the operator's search API); null without one. */
  web_search_engine: string | null;
}

export interface ProviderResponse {
  provider_name: string;
  model_permaslug: string;
  /** The upstream's HTTP status; null when no answer arrived (connect error, timeout). */
  status: number | null;
  latency: number;
  is_byok: boolean;
}

/**
 * OpenRouter's flat generation fields that do not clash with the spec's Generation (whose `usage` is an
 * object; OpenRouter's is a number and stays out). Token counts are the provider's own (native) counts;
 * the gateway does not re-count them with another tokenizer, so tokens_* equal native_tokens_*.
 */
export interface OpenRouterFlatFields {
  tokens_prompt: number;
  tokens_completion: number;
  native_tokens_prompt: number;
  native_tokens_completion: number;
  native_tokens_reasoning: number;
  native_tokens_cached: number;
  total_cost: number;
  upstream_inference_cost: number;
  is_byok: boolean;
  latency: number;
  /** Milliseconds from the serving attempt's start to the end of the answer. */
  generation_time: number;
  /**
   * USD prompt caching saved against the plain prompt price (negative when cache writes cost more than
   * input); null when the request neither read nor wrote the provider's cache.
   */
  cache_discount: number | null;
  provider_name: string;
  /** The app (its HTTP-Referer's origin) and what the request said about itself. */
  app_id: number | null;
  origin: string;
  http_referer: string | null;
  app_title: string | null;
}

const usd = (amount: string): number => picoToUsdNumber(usdToPico(amount));

/** The entries above 0: media fields appear only where there was some. */
function positive<T extends Record<string, number>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value > 0)) as Partial<T>;
}

export function generationJson(row: GenerationRow): GenerationJson {
  return {
    id: row.id,
    model: row.model,
    provider: row.provider,
    created_at: row.created_at.toISOString(),
    latency_ms: row.latency_ms,
    usage: {
      prompt_tokens: row.prompt_tokens,
      completion_tokens: row.completion_tokens,
      total_tokens: row.total_tokens,
      cost: usd(row.cost),
      is_byok: row.is_byok,
      estimated: row.estimated,
      prompt_tokens_details: {
        cached_tokens: row.cached_tokens,
        cache_write_tokens: row.cache_write_tokens,
        ...positive({
          audio_tokens: row.audio_tokens,
          image_tokens: row.image_tokens,
          document_tokens: row.document_tokens,
        }),
      },
      completion_tokens_details: {
        reasoning_tokens: row.reasoning_tokens,
        ...positive({ audio_tokens: row.completion_audio_tokens }),
      },
      cost_details: {
        upstream_inference_cost: usd(row.upstream_inference_cost),
        upstream_inference_prompt_cost: usd(row.upstream_inference_prompt_cost),
        upstream_inference_completions_cost: usd(row.upstream_inference_completions_cost),
        ...positive({
          upstream_inference_audio_cost: usd(row.audio_cost),
          upstream_inference_image_cost: usd(row.image_cost),
          upstream_inference_web_search_cost: usd(row.web_search_cost),
        }),
      },
    },
    api_type: row.api_type,
    streamed: row.streamed,
    cancelled: row.cancelled,
    finish_reason: row.finish_reason,
    native_finish_reason: row.native_finish_reason,
    upstream_id: row.upstream_id,
    generation_time_ms: row.generation_time_ms,
    key_hash: row.key_hash,
    attempts: row.attempts,
    error: errorOf(row),
    ...flatFields(row),
    ...callerFields(row),
  };
}

function errorOf(row: GenerationRow): GenerationError | null {
  if (row.error_status === null) return null;
  return { code: row.error_status, reason: row.error_reason, message: row.error_message ?? "" };
}

function callerFields(row: GenerationRow): OpenRouterCallerFields {
  return {
    data_region: "global",
    external_user: row.external_user,
    user_agent: row.user_agent,
    workspace_id: row.account_id,
    provider_responses: row.attempts.map((attempt) => ({
      provider_name: attempt.provider,
      model_permaslug: attempt.model,
      status: attempt.status === 0 ? null : attempt.status,
      latency: attempt.latency_ms,
      is_byok: attempt.is_byok,
    })),
    moderation_latency: null,
    native_tokens_completion_images: null,
    num_fetches: null,
    num_input_audio_prompt: null,
    num_media_completion: null,
    num_media_prompt: null,
    num_search_results: row.num_search_results ?? null,
    preset_id: null,
    router: null,
    service_tier: null,
    web_search_engine: row.web_search_engine ?? null,
  };
}

function flatFields(row: GenerationRow): OpenRouterFlatFields {
  return {
    tokens_prompt: row.prompt_tokens,
    tokens_completion: row.completion_tokens,
    native_tokens_prompt: row.prompt_tokens,
    native_tokens_completion: row.completion_tokens,
    native_tokens_reasoning: row.reasoning_tokens,
    native_tokens_cached: row.cached_tokens,
    total_cost: usd(row.cost),
    upstream_inference_cost: usd(row.upstream_inference_cost),
    is_byok: row.is_byok,
    latency: row.latency_ms,
    generation_time: row.generation_time_ms,
    cache_discount: row.cache_discount === null ? null : usd(row.cache_discount),
    provider_name: row.provider,
    app_id: row.app_id,
    origin: originOf(row.http_referer) ?? "",
    http_referer: row.http_referer,
    app_title: row.app_title,
  };
}
