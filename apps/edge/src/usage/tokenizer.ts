import type { Tiktoken } from "js-tiktoken/lite";

let loading: Promise<Tiktoken> | undefined;

/**
 * The o200k_base BPE (GPT-4o family) from js-tiktoken, pure JS. Its rank table is several megabytes,
 * so it is imported on first use only: most providers report usage and never need it.
 */
function tokenizer(): Promise<Tiktoken> {
  loading ??= Promise.all([import("js-tiktoken/lite"), import("js-tiktoken/ranks/o200k_base")]).then(
    ([{ Tiktoken: Encoder }, ranks]) => new Encoder(ranks.default),
  );
  return loading;
}

/** Token count of each text, in order. Special-token text is counted as plain text, never rejected. */
export async function countTokens(texts: readonly string[]): Promise<number[]> {
  const encoder = await tokenizer();
  return texts.map((text) => (text.length === 0 ? 0 : encoder.encode(text, [], []).length));
}
