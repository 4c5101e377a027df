import { perTokenFromPerMillion, shiftDecimal } from "../../components/pricing";

/** One changed field as the admin routes report it (`diff: [{target, field, old, new}]`). */
export interface DiffEntry {
  target: string;
  field: string;
  old: unknown;
  new: unknown;
}

/** A diff value as short text: strings as they are, absent as "—", anything else as compact JSON. */
export function diffValue(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

export type PriceField = "prompt" | "completion" | "input_cache_read" | "input_cache_write";

export const PRICE_FIELDS: ReadonlyArray<{ field: PriceField; label: string }> = [
  { field: "prompt", label: "Prompt (USD per 1M tokens)" },
  { field: "completion", label: "Completion (USD per 1M tokens)" },
  { field: "input_cache_read", label: "Cache read (USD per 1M tokens)" },
  { field: "input_cache_write", label: "Cache write (USD per 1M tokens)" },
];

export type PriceForm = Record<PriceField, string>;

export const EMPTY_PRICES: PriceForm = {
  prompt: "",
  completion: "",
  input_cache_read: "",
  input_cache_write: "",
};

/**
 * The `pricing` of POST /api/v1/admin/catalog/prices from what the operator typed (USD per million
 * tokens): only the fields filled in, converted to USD per token exactly. An error names the field.
 */
export function pricingBody(
  form: PriceForm,
):
  | { ok: true; pricing: Partial<Record<PriceField, string>> }
  | { ok: false; field: PriceField; message: string } {
  const pricing: Partial<Record<PriceField, string>> = {};
  for (const { field, label } of PRICE_FIELDS) {
    const typed = form[field].trim();
    if (typed === "") continue;
    const perToken = perTokenFromPerMillion(typed);
    if (perToken === undefined) {
      return { ok: false, field, message: `${label}: enter a non-negative amount like 0.15.` };
    }
    pricing[field] = perToken;
  }
  if (Object.keys(pricing).length === 0) {
    return { ok: false, field: "prompt", message: "Enter at least one price to change." };
  }
  return { ok: true, pricing };
}

export type ImportFormat = "litellm" | "openrouter";

/**
 * Guesses the format of a pasted or uploaded catalogue: OpenRouter's `GET /api/v1/models` answer is
 * `{data: [...]}`; LiteLLM's model_prices_and_context_window.json is an object keyed by model name.
 * Undefined when it is not JSON at all (the form says so before sending 9 MB to the API).
 */
export function detectFormat(content: string): ImportFormat | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  return Array.isArray((parsed as Record<string, unknown>).data) ? "openrouter" : "litellm";
}

/**
 * A price the API asks the operator to confirm (`high_prices` of an admin catalogue answer, and of the
 * 400 `price_confirmation_required`): above $1,000 per 1M tokens, or $10 per request or image.
 */
export interface HighPrice {
  /** `model@provider`. */
  target: string;
  /** `prompt`, `completion`, `request`, … */
  price: string;
  /** USD per token (per request / per image for those two), a decimal string. */
  usd: string;
}

/** "gpt-4o-mini@openai prompt: $1,000,000,000,000 per 1M tokens" (per request / per image as such). */
export function highPriceText(high: HighPrice): string {
  const perUnit = high.price === "request" || high.price === "image";
  const amount = perUnit ? high.usd : (shiftDecimal(high.usd, 6) ?? high.usd);
  const unit = perUnit ? `per ${high.price}` : "per 1M tokens";
  return `${high.target} ${high.price}: $${groupThousands(amount)} ${unit}`;
}

/** Thousands separators on the whole part of a decimal string, exactly (no float). */
function groupThousands(decimal: string): string {
  const [whole = "0", fraction] = decimal.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
