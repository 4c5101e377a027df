import type { NativeSearchTarget, ProviderAdapter } from "./types.js";

/**
 * How the adapter sends the web plugin's native search on one upstream model, or undefined when it sends
 * none there (`ProviderAdapter.nativeWebSearch`): the planner offers native search, and prices it, only
 * where this answers.
 */
export function nativeSearchTarget(
  adapter: Pick<ProviderAdapter, "apiFormat" | "nativeWebSearch"> | undefined,
  upstreamModel: string,
): NativeSearchTarget | undefined {
  const sends = adapter?.nativeWebSearch;
  if (sends === true) return { format: adapter?.apiFormat ?? "openai", model: upstreamModel };
  return typeof sends === "function" ? sends(upstreamModel) : undefined;
}
