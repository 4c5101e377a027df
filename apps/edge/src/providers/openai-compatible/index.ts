import type { ProviderSettings, UpstreamTimeouts } from "../../config.js";
import { readFailure } from "../error-body.js";
import { networkFailure } from "../failure.js";
import { classifyError, isFailure, UpstreamHttp } from "../http.js";
import type { ChatCall, ChatResult, ProviderAdapter } from "../types.js";
import { CHAT_COMPLETIONS_PATH, type OpenAiCompatibleOptions, openAiHeaders } from "./api.js";
import { chatRequestBody, parseCompletion } from "./chat.js";
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
  return {
    id: settings.id,
    apiFormat: "openai",
    isDemo: settings.isDemo,
    chat: { complete: (call) => completeChat(http, headers, call, options.streamUsage ?? true) },
    unsupported: undefined,
    close: () => http.close(),
  };
}

async function completeChat(
  http: UpstreamHttp,
  headers: Record<string, string>,
  call: ChatCall,
  streamUsage: boolean,
): Promise<ChatResult> {
  const signals = http.signals(call.signal);
  const response = await http.send(
    {
      method: "POST",
      path: CHAT_COMPLETIONS_PATH,
      headers: call.stream ? { ...headers, accept: "text/event-stream" } : headers,
      body: chatRequestBody(call.request, call.upstreamModel, call.stream, streamUsage),
    },
    signals,
  );
  if (isFailure(response)) return { ok: false, failure: response };
  if (response.status < 200 || response.status >= 300)
    return { ok: false, failure: await readFailure(response) };
  if (call.stream) {
    if (!String(response.headers["content-type"] ?? "").includes("text/event-stream")) {
      await response.body.dump().catch(() => undefined);
      return {
        ok: false,
        failure: networkFailure("protocol", "the provider did not answer with an event stream"),
      };
    }
    return {
      ok: true,
      stream: true,
      status: response.status,
      events: openAiStreamEvents(response.body, signals),
    };
  }
  let json: unknown;
  try {
    json = await response.body.json();
  } catch (error) {
    return { ok: false, failure: classifyError(error, signals) };
  }
  const completion = parseCompletion(json);
  if ("retryable" in completion) return { ok: false, failure: completion };
  return { ok: true, stream: false, status: response.status, completion };
}
