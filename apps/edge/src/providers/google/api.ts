/** The Gemini Developer API takes its key in `x-goog-api-key` (never the query string, so it stays out of logs). */
export function geminiHeaders(apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (apiKey) headers["x-goog-api-key"] = apiKey;
  return headers;
}
