import { httpAdapter } from "../adapter.js";
import type { WireDialect } from "../exchange.js";
import { UpstreamHttp } from "../http.js";
import type { ProviderSettings, UpstreamTimeouts } from "../settings.js";
import type { ProviderAdapter } from "../types.js";
import { CHAT_COMPLETIONS_PATH, type OpenAiCompatibleOptions, openAiHeaders } from "./api.js";
import { chatRequestBody, parseCompletion } from "./chat.js";
import { openAiEmbedDialect } from "./embeddings.js";
import { openAiStreamEvents } from "./stream.js";

export type { OpenAiCompatibleOptions } from "./api.js";

/**
 * The shared base of every OpenAI-compatible provider: the canonical form is their wire format, so a
 * new host is its settings plus, at most, a few extra headers.
 */
export function openAiCompatibleProvider(
  settings: ProviderSettings,
  timeouts: UpstreamTimeouts,
  options: OpenAiCompatibleOptions = {},
): ProviderAdapter {
  const http = new UpstreamHttp(settings.baseUrl, timeouts);
  const headers = openAiHeaders(settings.apiKey, options.extraHeaders);
  const streamUsage = options.streamUsage ?? true;
  const dialect: WireDialect = {
    request: (call) => ({
      path: CHAT_COMPLETIONS_PATH,
      headers,
      body: chatRequestBody(
        call.request,
        call.upstreamModel,
        call.stream,
        streamUsage,
        options.reasoningObject,
      ),
    }),
    parse: parseCompletion,
    events: openAiStreamEvents,
  };
  return httpAdapter(settings, "openai", http, dialect, openAiEmbedDialect(headers), headers);
}
