import { anthropicRequestBody } from "../../translate/anthropic/from-openai.js";
import { withWebSearchTool } from "../../translate/anthropic/web-search-tool.js";
import { httpAdapter } from "../adapter.js";
import type { WireDialect } from "../exchange.js";
import { UpstreamHttp } from "../http.js";
import type { ProviderFactory } from "../types.js";
import { anthropicHeaders, MESSAGES_PATH } from "./api.js";
import { parseAnthropicMessage } from "./chat.js";
import { anthropicStreamEvents } from "./stream.js";

export { MESSAGES_PATH } from "./api.js";

/** Anthropic's Messages API behind the canonical chat form, streaming included. */
export const anthropicProvider: ProviderFactory = (settings, timeouts) => {
  const http = new UpstreamHttp(settings.baseUrl, timeouts);
  const headers = anthropicHeaders(settings.apiKey);
  const dialect: WireDialect = {
    request: (call) => {
      const body = anthropicRequestBody(call.request, call.upstreamModel, call.stream, call.outputCap);
      withWebSearchTool(body, call.webSearch);
      return { path: MESSAGES_PATH, headers, body: JSON.stringify(body) };
    },
    parse: parseAnthropicMessage,
    events: anthropicStreamEvents,
  };
  const adapter = httpAdapter(settings, "anthropic", http, dialect, undefined, headers);
  // Its dialect sends ChatCall.webSearch (the web plugin's native search).
  return { ...adapter, nativeWebSearch: true };
};
