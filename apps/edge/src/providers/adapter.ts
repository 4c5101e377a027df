import type { ProviderSettings } from "../config.js";
import { type EmbedDialect, exchangeEmbeddings } from "./embed-exchange.js";
import { exchangeChat, type WireDialect } from "./exchange.js";
import type { UpstreamHttp } from "./http.js";
import type { ApiFormat, ProviderAdapter } from "./types.js";

/** An adapter over one connection pool: a chat dialect and, when the provider has one, embeddings. */
export function httpAdapter(
  settings: ProviderSettings,
  apiFormat: ApiFormat,
  http: UpstreamHttp,
  chat: WireDialect,
  embed?: EmbedDialect,
): ProviderAdapter {
  return {
    id: settings.id,
    apiFormat,
    isDemo: settings.isDemo,
    chat: { complete: (call) => exchangeChat(http, chat, call) },
    ...(embed ? { embeddings: { embed: (call) => exchangeEmbeddings(http, embed, call) } } : {}),
    unsupported: undefined,
    close: () => http.close(),
  };
}
