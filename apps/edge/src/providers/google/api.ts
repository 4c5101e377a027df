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
