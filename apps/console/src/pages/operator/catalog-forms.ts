import { perTokenFromPerMillion } from "../../components/pricing";

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

/** A price above this (USD per 1M tokens) is taken for a typo or a wrong unit until the operator confirms it. */
export const PRICE_WARNING_PER_MILLION = 1_000;
// In the diff's unit, pico-USD per token: $1,000 per 1M tokens = 10^-3 USD = 10^9 pico per token.
const PRICE_WARNING_PICO = 1_000_000_000n;

export interface SuspectPrice {
  target: string;
  /** `prompt`, `completion`, … */
  price: string;
  /** USD per 1M tokens. */
  perMillion: number;
}

/**
 * The prices an import would set above PRICE_WARNING_PER_MILLION: a changed `pricing.<name>` field, or
 * the prices of a new endpoint (field `*`), given by the admin routes as pico-USD per token strings.
 */
export function suspectPrices(diff: readonly DiffEntry[]): SuspectPrice[] {
  const found: SuspectPrice[] = [];
  const check = (target: string, field: string, value: unknown) => {
    if (!field.startsWith("pricing.") || typeof value !== "string" || !/^\d+$/.test(value)) return;
    const pico = BigInt(value);
    if (pico > PRICE_WARNING_PICO)
      // The diff names the stored fields (`pricing.promptPico`); the warning names the price.
      found.push({
        target,
        price: field.slice("pricing.".length).replace(/Pico$/, ""),
        perMillion: Number(pico) / 1e6,
      });
  };
  for (const entry of diff) {
    if (entry.field === "*" && typeof entry.new === "object" && entry.new !== null) {
      for (const [field, value] of Object.entries(entry.new)) check(entry.target, field, value);
    } else {
      check(entry.target, entry.field, entry.new);
    }
  }
  return found;
}
