import type { ModelVariant } from "./types.js";

const VARIANTS: readonly ModelVariant[] = ["free", "floor", "nitro"];

export interface ParsedModelId {
  /** The id without a variant suffix. */
  readonly baseId: string;
  readonly variant: ModelVariant | null;
}

/**
 * Splits a known variant suffix off a model id. Only the three spec suffixes count: a colon is otherwise
 * part of the id (Ollama tags such as `llama3:8b`).
 */
export function parseModelId(id: string): ParsedModelId {
  const colon = id.lastIndexOf(":");
  if (colon > 0) {
    const suffix = id.slice(colon + 1);
    const variant = VARIANTS.find((v) => v === suffix);
    if (variant) return { baseId: id.slice(0, colon), variant };
  }
  return { baseId: id, variant: null };
}
