import { perMillionToPicoPerToken, usdToPico } from "@gw/money";
import type { Pricing } from "./types.js";

/**
 * List prices as providers publish them: USD per million tokens for token prices, USD per unit for
 * request and image prices. Strings, so that a price is never a binary float on its way to pico.
 */
export interface ListPrice {
  readonly prompt: string;
  readonly completion?: string;
  readonly cacheRead?: string;
  readonly cacheWrite?: string;
  readonly reasoning?: string;
  readonly request?: string;
  readonly image?: string;
  /** USD per million input audio tokens, where the provider prices audio apart from text. */
  readonly audio?: string;
  /** USD per million output audio tokens, where the provider prices spoken output apart from text. */
  readonly audioOutput?: string;
}

export function listPrice(price: ListPrice): Pricing {
  return {
    promptPico: perMillionToPicoPerToken(price.prompt),
    completionPico: perMillionToPicoPerToken(price.completion ?? "0"),
    requestPico: usdToPico(price.request ?? "0"),
    imagePico: usdToPico(price.image ?? "0"),
    cacheReadPico: perMillionToPicoPerToken(price.cacheRead ?? "0"),
    cacheWritePico: perMillionToPicoPerToken(price.cacheWrite ?? "0"),
    reasoningPico: perMillionToPicoPerToken(price.reasoning ?? "0"),
    audioPico: perMillionToPicoPerToken(price.audio ?? "0"),
    audioOutputPico: perMillionToPicoPerToken(price.audioOutput ?? "0"),
  };
}

export const FREE: Pricing = listPrice({ prompt: "0" });

/** Release dates are kept as ISO days in the data (readable, reviewable) and stored as Unix seconds. */
export function unixDay(isoDay: string): bigint {
  const ms = Date.parse(`${isoDay}T00:00:00Z`);
  if (Number.isNaN(ms)) throw new RangeError(`not an ISO day: ${isoDay}`);
  return BigInt(ms / 1000);
}
