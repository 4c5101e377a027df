/** Anthropic's Messages API authenticates with `x-api-key` and pins the wire version in a header. */
export const ANTHROPIC_VERSION = "2023-06-01";

export function anthropicHeaders(apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "anthropic-version": ANTHROPIC_VERSION,
  };
  if (apiKey) headers["x-api-key"] = apiKey;
  return headers;
}
