import { BpeCounter } from "./bpe-counter.js";

let loading: Promise<BpeCounter> | undefined;

/**
 * The o200k_base BPE (GPT-4o family) from js-tiktoken's rank file, counted by our own BpeCounter
 * (js-tiktoken's encoder costs ~170 MB of RSS; see bpe-counter.ts). The rank file is several
 * megabytes, so it is imported on first use only: most providers report usage and never need it.
 */
function tokenizer(): Promise<BpeCounter> {
  loading ??= import("js-tiktoken/ranks/o200k_base").then((ranks) => new BpeCounter(ranks.default));
  return loading;
}

/** Token count of each text, in order. Special-token text is counted as plain text, never rejected. */
export async function countTokens(texts: readonly string[]): Promise<number[]> {
  const counter = await tokenizer();
  return texts.map((text) => (text.length === 0 ? 0 : counter.count(text)));
}
