export interface OpenAiCompatibleOptions {
  /** Headers a provider wants on every call besides the bearer credential. */
  extraHeaders?: Record<string, string>;
  /**
   * Whether the host accepts `stream_options.include_usage`. Every host the catalogue lists does; one that
   * rejects it can turn this off and usage is then estimated.
   */
  streamUsage?: boolean;
  /** Whether the host takes OpenRouter's `reasoning` object; others get `reasoning_effort`. */
  reasoningObject?: boolean;
}

export const CHAT_COMPLETIONS_PATH = "/chat/completions";

/** Bearer auth on a JSON API: the whole of the OpenAI convention that compatible hosts copy. */
export function openAiHeaders(
  apiKey: string | undefined,
  extra: Record<string, string> = {},
): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json",
    ...extra,
  };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  return headers;
}
