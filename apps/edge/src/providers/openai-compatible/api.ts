export const CHAT_COMPLETIONS_PATH = "/chat/completions";

/** Bearer auth on a JSON API: the whole of the OpenAI convention that compatible hosts copy. */
export function openAiHeaders(
  apiKey: string | undefined,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json",
    ...extra,
  };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  return headers;
}
