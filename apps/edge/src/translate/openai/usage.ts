import { picoToUsdNumber } from "@gw/money";
import type { Cost } from "../../canonical/cost.js";
import { type TokenUsage, totalTokens } from "../../canonical/tokens.js";

/** OpenAI's usage object plus the gateway's cost fields (OpenRouter's names, which its SDKs read). */
export interface UsageBody {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: {
    cached_tokens: number;
    cache_write_tokens: number;
    /** OpenAI's name; the provider's count (OpenAI's audio models, Gemini's AUDIO modality). */
    audio_tokens: number;
    /** Image and document tokens where the provider reports them apart (Gemini); absent where it does not. */
    image_tokens?: number;
    document_tokens?: number;
  };
  completion_tokens_details: { reasoning_tokens: number; audio_tokens: number };
  cost: number;
  is_byok: boolean;
  estimated: boolean;
  cost_details: {
    upstream_inference_cost: number;
    upstream_inference_prompt_cost: number;
    upstream_inference_completions_cost: number;
    /**
     * OpenRouter's `cache_discount`: USD saved by cached reads, negative for dearer cache writes; only
     * present when caching changed the price.
     */
    cache_discount?: number;
    /**
     * Audio: the prompt's at the audio price (of the prompt cost) plus the audio the model spoke at the
     * audio output price (of the completions cost); images (of the prompt cost) at the per-image price.
     * Only when there were any.
     */
    upstream_inference_audio_cost?: number;
    upstream_inference_image_cost?: number;
    /**
     * The web plugin's searches (the provider's own or the search API's): in `cost`, beside
     * `upstream_inference_cost`, not part of it; only when one was billed. OpenRouter documents no
     * name for it; named after the media parts above.
     */
    upstream_inference_web_search_cost?: number;
  };
}

export interface UsageRender {
  usage: TokenUsage;
  /** The provider's price at catalogue rates (reported as the upstream cost). */
  cost: Cost;
  /** What the account's credits are charged: `cost`'s total, or for a BYOK request only the fee. */
  chargedPico: bigint;
  estimated: boolean;
  isByok: boolean;
}

export function renderUsage({ usage, cost, chargedPico, estimated, isByok }: UsageRender): UsageBody {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: totalTokens(usage),
    prompt_tokens_details: {
      cached_tokens: usage.cachedTokens,
      cache_write_tokens: usage.cacheWriteTokens,
      audio_tokens: usage.audioTokens ?? 0,
      ...(usage.imageTokens ? { image_tokens: usage.imageTokens } : {}),
      ...(usage.documentTokens ? { document_tokens: usage.documentTokens } : {}),
    },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens,
      audio_tokens: usage.completionAudioTokens ?? 0,
    },
    cost: picoToUsdNumber(chargedPico),
    is_byok: isByok,
    estimated,
    cost_details: {
      // The provider's price: the web plugin's search is the gateway's, in `cost` but not here.
      upstream_inference_cost: picoToUsdNumber(cost.totalPico - (cost.webSearchPico ?? 0n)),
      // The per-request price is part of the prompt's, as in the usage event: the parts add up.
      upstream_inference_prompt_cost: picoToUsdNumber(cost.promptPico + cost.requestPico),
      upstream_inference_completions_cost: picoToUsdNumber(cost.completionPico),
      ...(cost.cacheDiscountPico ? { cache_discount: picoToUsdNumber(cost.cacheDiscountPico) } : {}),
      ...(cost.audioPico ? { upstream_inference_audio_cost: picoToUsdNumber(cost.audioPico) } : {}),
      ...(cost.imagePico ? { upstream_inference_image_cost: picoToUsdNumber(cost.imagePico) } : {}),
      ...(cost.webSearchPico
        ? { upstream_inference_web_search_cost: picoToUsdNumber(cost.webSearchPico) }
        : {}),
    },
  };
}
