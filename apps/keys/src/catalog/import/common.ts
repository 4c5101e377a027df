import { usdToPico } from "@gw/money";
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

/**
 * The most entries (models of either format) one import may list: the whole file is parsed, checked
 * and diffed in one synchronous pass, so its size is how long the process stops serving (a 30,000-model
 * dry run blocked it for up to 0.84 s, issue 33). 10,000 is about four times LiteLLM's own file and
 * twenty times OpenRouter's list; a larger catalogue goes in as several imports (by provider).
 */
export const MAX_IMPORT_ENTRIES = 10_000;

/** The problem of a file listing more than MAX_IMPORT_ENTRIES entries, naming the maximum. */
export function tooManyEntries(count: number): string {
  return `${count} entries: at most ${MAX_IMPORT_ENTRIES.toLocaleString("en-US")} per import (split the file, e.g. by provider)`;
}

export type PriceField = keyof Pricing;

/**
 * A USD amount per token or per unit, as a JSON number (LiteLLM) or decimal string (OpenRouter), in
 * exact pico-dollars (@gw/money reads a number's shortest decimal form, so 1.5e-7 is 150000 exactly).
 * Problems (non-numeric, negative, finer than a pico-dollar) are pushed, not thrown, so one pass lists
 * them all.
 */
export function usdToPicoChecked(value: unknown, where: string, problems: string[]): bigint | undefined {
  if (value === undefined || value === null) return undefined;
  if ((typeof value !== "number" || !Number.isFinite(value)) && typeof value !== "string") {
    problems.push(`${where}: not a number: ${JSON.stringify(value)}`);
    return undefined;
  }
  let pico: bigint;
  try {
    pico = usdToPico(value);
  } catch (error) {
    const finer = (error as Error).message.includes("precision");
    problems.push(
      `${where}: ${finer ? "finer than a pico-dollar" : "not a number"}: ${JSON.stringify(value)}`,
    );
    return undefined;
  }
  if (pico < 0n) {
    problems.push(`${where}: negative price ${JSON.stringify(value)}`);
    return undefined;
  }
  return pico;
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
