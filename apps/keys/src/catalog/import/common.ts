import type { Pricing } from "@gw/proto/catalog/v1/catalog";
import type { ImportedModel } from "../operations.js";

export type ImportFormat = "litellm" | "openrouter";

export interface ParsedImport {
  models: ImportedModel[];
  /** Every reason to refuse the file; the import is refused whole when there is any. */
  problems: string[];
  /** Entries deliberately left out (modes the gateway does not serve, providers skipped on request). */
  skipped: string[];
}

export interface ImportOptions {
  /** Providers the catalogue knows: an entry for any other is a problem unless skipped on request. */
  knownProviders: ReadonlySet<string>;
  /** Skip (and report) entries of providers the catalogue does not know instead of refusing the file. */
  skipUnknownProviders?: boolean | undefined;
}

export type PriceField = keyof Pricing;

const PICO_PER_USD = 1e12;

/**
 * A USD amount per token or per unit, as a JSON number (LiteLLM) or decimal string (OpenRouter), in
 * whole pico-dollars. Problems (non-numeric, negative, finer than a pico-dollar) are pushed, not thrown,
 * so one pass lists them all.
 */
export function usdToPicoChecked(value: unknown, where: string, problems: string[]): bigint | undefined {
  if (value === undefined || value === null) return undefined;
  const number =
    typeof value === "number" ? value : typeof value === "string" ? strictNumber(value) : Number.NaN;
  if (!Number.isFinite(number)) {
    problems.push(`${where}: not a number: ${JSON.stringify(value)}`);
    return undefined;
  }
  if (number < 0) {
    problems.push(`${where}: negative price ${JSON.stringify(value)}`);
    return undefined;
  }
  const pico = number * PICO_PER_USD;
  const whole = Math.round(pico);
  // Float noise (1.5e-7 * 1e12 = 150000.00000000003) is not a finer price; a real fraction of a pico is.
  if (Math.abs(pico - whole) > 1e-6 * Math.max(1, pico)) {
    problems.push(`${where}: finer than a pico-dollar: ${JSON.stringify(value)}`);
    return undefined;
  }
  return BigInt(whole);
}

function strictNumber(text: string): number {
  return /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(text) ? Number(text) : Number.NaN;
}

/** A positive whole number of tokens, or a problem. */
export function tokensChecked(value: unknown, where: string, problems: string[]): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1 || value > 100_000_000) {
    problems.push(`${where}: not a whole number of tokens from 1 to 100,000,000: ${JSON.stringify(value)}`);
    return undefined;
  }
  return value;
}

/**
 * The keys of the top-level object of a JSON text, in order and with repeats. JSON.parse keeps only the
 * last of two equal keys; an import must refuse the file instead, so the raw text is scanned.
 */
export function topLevelKeys(text: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (depth === 1 && expectKey) keys.push(JSON.parse(text.slice(i, end + 1)) as string);
      expectKey = false;
      i = end;
    } else if (c === "{" || c === "[") {
      depth++;
      expectKey = c === "{" && depth === 1;
    } else if (c === "}" || c === "]") depth--;
    else if (c === "," && depth === 1) expectKey = true;
  }
  return keys;
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

export function duplicates(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const id of ids) (seen.has(id) ? repeated : seen).add(id);
  return [...repeated];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
