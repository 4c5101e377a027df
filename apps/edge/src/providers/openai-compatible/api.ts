import { ID_SEGMENT, type ProxyEndpoint } from "../proxy-endpoint.js";

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

/**
 * What the provider proxy forwards to an OpenAI-compatible host, relative to its API base (`/v1` at
 * OpenAI): stateless inference and the model list. Stored state on the shared account (files, batches,
 * fine-tuning, assistants, stored responses and completions, realtime sessions, video) is not on it.
 * `POST /responses` is forwarded only with `store: false` (pipeline/proxy.ts).
 */
export const OPENAI_PROXY_ENDPOINTS: readonly ProxyEndpoint[] = [
  { method: "POST", pattern: /^\/chat\/completions$/, example: "/chat/completions" },
  { method: "POST", pattern: /^\/completions$/, example: "/completions" },
  { method: "POST", pattern: /^\/embeddings$/, example: "/embeddings" },
  { method: "POST", pattern: /^\/responses$/, example: "/responses" },
  { method: "GET", pattern: /^\/models$/, example: "/models" },
  // Fine-tuned model ids carry colons (`ft:gpt-4o-mini:org::id`).
  {
    method: "GET",
    pattern: new RegExp(`^/models/${ID_SEGMENT}(?::[A-Za-z0-9._-]*)*$`),
    example: "/models/ft:gpt-4o-mini:org::abc",
  },
];
