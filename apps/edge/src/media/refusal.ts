import { MediaFetchRefused } from "./fetcher.js";

/**
 * A URL the guarded fetcher would not fetch, or could not; `reason` says which and why, in a sentence.
 * A MediaFetchRefused, so the planner names the part with it like any fetcher's refusal.
 */
export class GuardedFetchRefused extends MediaFetchRefused {
  override readonly name = "GuardedFetchRefused";
}

/** Why a connection or an HTTP exchange failed, as the end of a sentence that starts with the origin. */
export function transportProblem(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== "string") return "could not be fetched";
  if (code.startsWith("HPE_")) return `sent a malformed HTTP response (${code})`;
  if (code === "ECONNREFUSED") return "refused the connection";
  if (code === "ECONNRESET") return "reset the connection";
  if (/CERT|SSL|TLS/.test(code)) return `could not be verified over TLS (${code})`;
  return `could not be fetched (${code})`;
}
