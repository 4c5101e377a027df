import { type ChargePolicy, chargedPico } from "@gw/money";
import type { PromptText } from "../canonical/prompt-text.js";
import type { Endpoint } from "../catalog/snapshot.js";
import type { PlannedAttempt } from "../planning/plan.js";

/**
 * Every token the o200k/cl100k BPEs produce is at least one byte and English averages about four, so
 * two UTF-8 bytes per token over-estimates almost any prompt without running a tokenizer on the hot path.
 */
const BYTES_PER_TOKEN_FLOOR = 2;
const TOKENS_PER_MESSAGE = 3;
const REPLY_PRIMER_TOKENS = 3;

/**
 * Audio tokens per second of sound: Gemini counts 32 (ai.google.dev "Audio understanding": "each second
 * of audio is represented as 32 tokens"), the most of the providers that take audio (OpenAI's audio
 * models count fewer). The byte rate is the floor of what a caller can send: 500 bytes a second
 * (4 kbit/s) is below the lowest bit rate of every format the providers accept (MP3's 8 kbit/s, Opus
 * at 6 kbit/s, WAV/AIFF/FLAC far above), so bytes ÷ 500 over-counts the seconds, and the tokens held
 * are an upper bound on what any provider reports for the clip.
 */
const AUDIO_TOKENS_PER_SECOND = 32;
const AUDIO_BYTES_PER_SECOND_FLOOR = 500;

/**
 * The most input tokens one image is billed as by any model the gateway serves: OpenAI's gpt-4o-mini at
 * high detail (platform.openai.com "Images and vision", calculating costs: 2,833 base tokens plus 5,667
 * per 512 px tile, at most 8 tiles once the image is scaled to fit 2048 px and its short side to 768 px).
 * The others document less (gpt-4o 85 + 170 x 8 = 1,445; Claude about width x height / 750 after
 * scaling to 1.15 megapixels, some 1,600). The image's size is not known without decoding it, so the
 * hold takes the most, capped with the other media at the endpoint's context.
 */
export const IMAGE_TOKENS_BOUND = 2_833 + 5_667 * 8;

/** The most tokens `bytes` of audio can be billed as (see AUDIO_TOKENS_PER_SECOND). */
export function audioTokenBound(bytes: number): number {
  return Math.ceil((bytes * AUDIO_TOKENS_PER_SECOND) / AUDIO_BYTES_PER_SECOND_FLOOR);
}

/** A cheap, deliberately high prompt-token estimate for the spend hold. */
/** The estimate for `bytes` of text more in `messages` messages more (the same floor as the prompt's). */
export function estimateAddedTokens(bytes: number, messages: number): number {
  return messages * TOKENS_PER_MESSAGE + Math.ceil(bytes / BYTES_PER_TOKEN_FLOOR);
}

export function estimatePromptTokens(prompt: PromptText): number {
  let tokens = prompt.messageCount * TOKENS_PER_MESSAGE + REPLY_PRIMER_TOKENS;
  for (const text of prompt.texts)
    tokens += Math.ceil(Buffer.byteLength(text, "utf8") / BYTES_PER_TOKEN_FLOOR);
  // Images are held apart, at their bound (inputWorstCase), not at this typical figure.
  return tokens;
}

export interface WorstCaseInput {
  promptTokens: number;
  /** `max_completion_tokens ?? max_tokens` from the request, if any. */
  maxTokens: number | undefined;
  /** `n`: each choice can use the whole output budget. */
  choices: number;
  imageCount: number;
  /** The web plugin's search at its most (max_results at the per-result price), on top of any attempt. */
  searchPico?: bigint | undefined;
  /** The prompt's audio at its most (audioTokenBound of its bytes); absent = none. */
  audioTokens?: number | undefined;
  /** Document (`file`) parts sent to the model as files; absent = none. */
  files?: number | undefined;
}

/**
 * The most one attempt can cost: the prompt at the dearest input price and the output budget at the
 * dearest output price. Without `max_tokens` the budget is the endpoint's maximum output, or what is
 * left of its context when the catalogue lists no maximum.
 */
export function endpointWorstCase(endpoint: Endpoint, input: WorstCaseInput): bigint {
  const pricing = endpoint.pricing;
  if (!pricing) return 0n;
  const outputTokens = BigInt(outputBudget(endpoint, input) * Math.max(1, input.choices));
  return inputWorstCase(endpoint, input) + outputTokens * dearestOutputPrice(pricing);
}

/**
 * The dearest price an output token can have: text, reasoning, or audio the model speaks where that is
 * priced apart (OpenAI's audio models: 8x their text output), since the answer may be any of them.
 */
export function dearestOutputPrice(pricing: NonNullable<Endpoint["pricing"]>): bigint {
  return max(max(pricing.completionPico, pricing.reasoningPico), pricing.audioOutputPico ?? 0n);
}

/**
 * The most the input of one attempt can cost: the prompt at the dearest input price, the request and
 * image prices, and the media. Audio is held at its byte-size bound and a document at the endpoint's
 * whole context: a PDF's tokens do not follow from its size (compressed text streams; pages billed as
 * images besides their text), and no provider bills more input than its context holds, which also caps
 * the audio. Media tokens are held at the dearer of the prompt and audio prices.
 */
export function inputWorstCase(endpoint: Endpoint, input: WorstCaseInput): bigint {
  const pricing = endpoint.pricing;
  if (!pricing) return 0n;
  const promptPrice = max(pricing.promptPico, pricing.cacheWritePico);
  const mediaTokens =
    (input.files ?? 0) > 0
      ? endpoint.contextLength
      : Math.min(endpoint.contextLength, (input.audioTokens ?? 0) + input.imageCount * IMAGE_TOKENS_BOUND);
  return (
    BigInt(input.promptTokens) * promptPrice +
    BigInt(mediaTokens) * max(promptPrice, pricing.audioPico ?? 0n) +
    pricing.requestPico +
    BigInt(input.imageCount) * pricing.imagePico
  );
}

/** BYOK charging for the hold: the fee policy and whether the key's limit counts BYOK spend. */
export interface HoldCharge {
  policy: ChargePolicy;
  includeByok: boolean;
}

/**
 * The hold covers whichever attempt ends up serving, so it is the largest over the plan. An attempt
 * on the account's own provider key costs the credits only the BYOK fee of its worst case, unless the
 * key's limit counts BYOK spend (include_byok_in_limit): the one hold is checked against both the
 * balance and that limit, so it then stays at the provider's full worst case.
 */
export function worstCaseCost(
  attempts: readonly PlannedAttempt[],
  input: WorstCaseInput,
  charge?: HoldCharge,
): bigint {
  const model = attempts.reduce((worst, attempt) => {
    const full = endpointWorstCase(attempt.endpoint, input);
    const byokOnly = charge !== undefined && attempt.byok !== undefined && !charge.includeByok;
    const held = byokOnly ? chargedPico({ ...ZERO_PRICE, totalPico: full }, true, charge.policy) : full;
    return max(worst, held);
  }, 0n);
  // The search is the gateway's own cost whoever's key serves the model: held in full.
  return model + (input.searchPico ?? 0n);
}

const ZERO_PRICE = { promptPico: 0n, completionPico: 0n, requestPico: 0n, totalPico: 0n };

/** The output tokens one attempt may produce: `max_tokens` capped by the endpoint, else its maximum or what the context leaves. */
export function outputBudget(endpoint: Endpoint, input: WorstCaseInput): number {
  const endpointMax = endpoint.maxCompletionTokens;
  if (input.maxTokens !== undefined)
    return endpointMax > 0 ? Math.min(input.maxTokens, endpointMax) : input.maxTokens;
  if (endpointMax > 0) return endpointMax;
  return Math.max(0, endpoint.contextLength - input.promptTokens);
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
