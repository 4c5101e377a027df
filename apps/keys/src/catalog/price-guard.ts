import { picoToDecimalString } from "@gw/money";
import type { Pricing } from "@gw/proto/catalog/v1/catalog";
import type { CatalogContent } from "./content.js";

// An operator change that sets a price far above any real one is far more often a typo or a wrong unit
// (a per-1M price typed per token: 10^6 times too much) than a price: every request on that endpoint
// would be charged it. The admin routes refuse such a change unless the request confirms it
// (`confirm_high_prices: true`), so a script cannot apply what the console asks a person to confirm.

/** Per-token prices above $0.001 per token ($1,000 per 1M tokens): 10^9 pico-USD. */
export const HIGH_TOKEN_PRICE_PICO = 1_000_000_000n;
/** Per-request and per-image prices above $10: 10^13 pico-USD. */
export const HIGH_UNIT_PRICE_PICO = 10_000_000_000_000n;

/** The prices as the admin routes name them, with the unit the threshold is in. */
const CHECKED: ReadonlyArray<{ name: string; field: keyof Pricing; perToken: boolean }> = [
  { name: "prompt", field: "promptPico", perToken: true },
  { name: "completion", field: "completionPico", perToken: true },
  { name: "input_cache_read", field: "cacheReadPico", perToken: true },
  { name: "input_cache_write", field: "cacheWritePico", perToken: true },
  { name: "internal_reasoning", field: "reasoningPico", perToken: true },
  { name: "audio", field: "audioPico", perToken: true },
  { name: "request", field: "requestPico", perToken: false },
  { name: "image", field: "imagePico", perToken: false },
];

export interface HighPrice {
  /** `model@provider`, as the diff names an endpoint. */
  target: string;
  /** `prompt`, `completion`, …, as the admin routes' `pricing` names it. */
  price: string;
  /** The new price in USD per token (per request / per image for those two), a decimal string. */
  usd: string;
}

/**
 * The prices a change sets above the thresholds: on a new endpoint, or changed on an existing one (a
 * high price already served is not asked about again).
 */
export function highPrices(before: CatalogContent, after: CatalogContent): HighPrice[] {
  const old = new Map<string, Partial<Pricing> | undefined>();
  for (const model of before.models)
    for (const endpoint of model.endpoints) old.set(`${model.id}@${endpoint.providerId}`, endpoint.pricing);
  const found: HighPrice[] = [];
  for (const model of after.models) {
    for (const endpoint of model.endpoints) {
      const target = `${model.id}@${endpoint.providerId}`;
      const previous = old.get(target);
      for (const { name, field, perToken } of CHECKED) {
        const pico = endpoint.pricing?.[field] ?? 0n;
        if (pico <= (perToken ? HIGH_TOKEN_PRICE_PICO : HIGH_UNIT_PRICE_PICO)) continue;
        if (previous?.[field] === pico) continue;
        found.push({ target, price: name, usd: trimZeros(picoToDecimalString(pico)) });
      }
    }
  }
  return found;
}

/** One line per price, for `error.metadata.problems`. */
export function highPriceProblem(high: HighPrice): string {
  const unit = high.price === "request" ? "per request" : high.price === "image" ? "per image" : "per token";
  const limit = unit === "per token" ? "$0.001 per token ($1,000 per 1M tokens)" : `$10 ${unit}`;
  return `${high.target}: ${high.price} $${high.usd} ${unit} is above ${limit}`;
}

function trimZeros(decimal: string): string {
  return decimal.includes(".") ? decimal.replace(/\.?0+$/, "") : decimal;
}

/** A change that sets high prices without the request's confirmation: nothing was written. */
export class HighPriceError extends Error {
  constructor(readonly prices: HighPrice[]) {
    super(`unconfirmed high prices: ${prices.map(highPriceProblem).join("; ")}`);
  }
}
