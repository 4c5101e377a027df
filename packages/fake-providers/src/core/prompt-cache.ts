import { createHash } from "node:crypto";

/**
 * The fake's prompt cache, one per server, consulted only under the `cache` scenario so usage stays
 * predictable otherwise. Like the providers' caches it is keyed by the exact prompt prefix: the first
 * request with a prefix writes it, a later one with the same prefix reads it.
 * Anthropic marks the prefix with `cache_control` breakpoints; OpenAI and Gemini cache implicitly (here:
 * everything before the last message). Anthropic's minimum cacheable length per model is modelled (its
 * cache.ts); OpenAI's and Gemini's minimums and every expiry are left out, so short test prompts can
 * exercise those.
 */
export class PromptCache {
  readonly #seen = new Set<string>();
  readonly #limit: number;

  constructor(limit = 1000) {
    this.#limit = limit;
  }

  /** Whether `prefix` was cached before this call; it is cached after it. */
  hit(prefix: unknown): boolean {
    const key = createHash("sha256").update(JSON.stringify(prefix)).digest("hex");
    if (this.#seen.has(key)) return true;
    if (this.#seen.size >= this.#limit) this.#seen.clear();
    this.#seen.add(key);
    return false;
  }
}
