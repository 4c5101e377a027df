import type { OpenAiDialect } from "@gw/catalog";
import { httpAdapter } from "../adapter.js";
import type { WireDialect } from "../exchange.js";
import { UpstreamHttp } from "../http.js";
import type { ProviderSettings, UpstreamTimeouts } from "../settings.js";
import type { ProviderAdapter } from "../types.js";
import { CHAT_COMPLETIONS_PATH, openAiHeaders } from "./api.js";
import { chatRequestBody, parseCompletion } from "./chat.js";
import { openAiEmbedDialect } from "./embeddings.js";
import { openAiStreamEvents } from "./stream.js";

/**
 * The shared base of every OpenAI-compatible provider: the canonical form is their wire format, so a
 * new host is its catalogue line, with an `openAiDialect` when it departs from OpenAI's API.
 */
export function openAiCompatibleProvider(
  settings: ProviderSettings,
  timeouts: UpstreamTimeouts,
  host: OpenAiDialect = {},
): ProviderAdapter {
  const http = new UpstreamHttp(settings.baseUrl, timeouts);
  const headers = openAiHeaders(settings.apiKey, host.extraHeaders);
  const streamUsage = host.noStreamUsage !== true;
  const dialect: WireDialect = {
    request: (call) => ({
      path: CHAT_COMPLETIONS_PATH,
      headers,
      body: chatRequestBody(
        call.request,
        call.upstreamModel,
        call.stream,
        streamUsage,
        host.reasoningObject,
        {
          supportedParameters: call.supportedParameters,
          webSearch: call.webSearch,
        },
      ),
    }),
    parse: parseCompletion,
    events: openAiStreamEvents,
  };
  const adapter = httpAdapter(settings, "openai", http, dialect, openAiEmbedDialect(headers), headers);
  // Its dialect sends ChatCall.webSearch (the web plugin's native search).
  return { ...adapter, nativeWebSearch: true };
}
