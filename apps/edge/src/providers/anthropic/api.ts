import { ID_SEGMENT, type ProxyEndpoint } from "../proxy-endpoint.js";

/** Anthropic's Messages API authenticates with `x-api-key` and pins the wire version in a header. */
export const ANTHROPIC_VERSION = "2023-06-01";

export const MESSAGES_PATH = "/v1/messages";

export function anthropicHeaders(apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "anthropic-version": ANTHROPIC_VERSION,
  };
  if (apiKey) headers["x-api-key"] = apiKey;
  return headers;
}

/**
 * What the provider proxy forwards to Anthropic: Messages, token counting and the model list. Message
 * batches and files live on the shared account and are not on it.
 */
export const ANTHROPIC_PROXY_ENDPOINTS: readonly ProxyEndpoint[] = [
  { method: "POST", pattern: /^\/v1\/messages$/, example: "/v1/messages" },
  { method: "POST", pattern: /^\/v1\/messages\/count_tokens$/, example: "/v1/messages/count_tokens" },
  { method: "GET", pattern: /^\/v1\/models$/, example: "/v1/models" },
  {
    method: "GET",
    pattern: new RegExp(`^/v1/models/${ID_SEGMENT}$`),
    example: "/v1/models/claude-sonnet-4-20250514",
  },
];
