import { ID_SEGMENT, type ProxyEndpoint } from "../proxy-endpoint.js";

/** The Gemini Developer API takes its key in `x-goog-api-key` (never the query string, so it stays out of logs). */
export function geminiHeaders(apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (apiKey) headers["x-goog-api-key"] = apiKey;
  return headers;
}

/** `/v1beta/models/{model}:{method}`: the model is a path segment, escaped so it cannot add one. */
export function geminiPath(model: string, method: string, query = ""): string {
  return `/v1beta/models/${encodeURIComponent(model)}:${method}${query}`;
}

const GEMINI_METHODS = "generateContent|streamGenerateContent|countTokens|embedContent|batchEmbedContents";

/**
 * What the provider proxy forwards to the Gemini API (`v1beta` and `v1`): a base model's inference methods
 * and the model list. Cached contents, tuned models, files, corpora and long-running operations live on the
 * shared account and are not on it.
 */
export const GEMINI_PROXY_ENDPOINTS: readonly ProxyEndpoint[] = [
  {
    method: "POST",
    pattern: new RegExp(`^/v1(?:beta)?/models/${ID_SEGMENT}:(?:${GEMINI_METHODS})$`),
    example: "/v1beta/models/gemini-2.5-flash:generateContent",
  },
  { method: "GET", pattern: /^\/v1(?:beta)?\/models$/, example: "/v1beta/models" },
  {
    method: "GET",
    pattern: new RegExp(`^/v1(?:beta)?/models/${ID_SEGMENT}$`),
    example: "/v1/models/gemini-2.5-flash",
  },
];
