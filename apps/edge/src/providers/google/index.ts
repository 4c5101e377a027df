import { geminiRequestBody } from "../../translate/gemini/from-openai.js";
import { withGoogleSearch } from "../../translate/gemini/search-tool.js";
import { completionFromGemini, geminiFinishReason, responseUsage } from "../../translate/gemini/to-openai.js";
import { httpAdapter } from "../adapter.js";
import type { WireDialect } from "../exchange.js";
import { networkFailure, type UpstreamFailure } from "../failure.js";
import { UpstreamHttp } from "../http.js";
import type { CanonicalCompletion, ChatCall, ProviderFactory } from "../types.js";
import { geminiHeaders, geminiPath } from "./api.js";
import { geminiEmbedDialect } from "./embeddings.js";
import { geminiStreamEvents } from "./stream.js";

/** The Gemini Developer API behind the canonical chat form; streams always use `alt=sse`. */
export const googleProvider: ProviderFactory = (settings, timeouts) => {
  const http = new UpstreamHttp(settings.baseUrl, timeouts);
  const headers = geminiHeaders(settings.apiKey);
  const dialect: WireDialect = {
    request: (call) => ({
      path: call.stream
        ? geminiPath(call.upstreamModel, "streamGenerateContent", "?alt=sse")
        : geminiPath(call.upstreamModel, "generateContent"),
      headers,
      body: JSON.stringify(searchedBody(call)),
    }),
    parse: parseGeminiResponse,
    events: geminiStreamEvents,
  };
  const adapter = httpAdapter(settings, "gemini", http, dialect, geminiEmbedDialect(headers), headers);
  // Its dialect sends ChatCall.webSearch (the web plugin's native search).
  return { ...adapter, nativeWebSearch: true };
};

function searchedBody(call: ChatCall): Record<string, unknown> {
  const body = geminiRequestBody(call.request);
  withGoogleSearch(body, call.webSearch);
  return body;
}

export function parseGeminiResponse(json: unknown): CanonicalCompletion | UpstreamFailure {
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return networkFailure("protocol", "the provider returned a malformed response");
  const response = json as Record<string, unknown>;
  if (!Array.isArray(response.candidates) && !response.promptFeedback)
    return networkFailure("protocol", "the provider returned a response without candidates");
  const body = completionFromGemini(response);
  return {
    body,
    upstreamId: body.id,
    usage: responseUsage(response),
    nativeFinishReason: geminiFinishReason(response),
  };
}
