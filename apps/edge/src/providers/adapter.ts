import { thoughtsExcluded } from "../translate/openai/reasoning.js";
import { type EmbedDialect, exchangeEmbeddings } from "./embed-exchange.js";
import { exchangeChat, type WireDialect } from "./exchange.js";
import { withoutThoughts } from "./excluded-thoughts.js";
import type { UpstreamHttp } from "./http.js";
import { nativeAware, nativeRequestOf } from "./native.js";
import type { ProviderSettings } from "./settings.js";
import type { ApiFormat, ProviderAdapter, ProxyTransport } from "./types.js";

/**
 * An adapter over one connection pool: a chat dialect, embeddings when the provider has them, and the
 * proxy's native calls with `headers` (the provider's credential and defaults) added.
 */
export function httpAdapter(
  settings: ProviderSettings,
  apiFormat: ApiFormat,
  http: UpstreamHttp,
  chat: WireDialect,
  embed: EmbedDialect | undefined,
  headers: Record<string, string>,
): ProviderAdapter {
  // A caller speaking this provider's own format reaches it as sent (native.ts, <provider>/native-rules.ts).
  const dialect = nativeAware(apiFormat, chat, headers);
  return {
    id: settings.id,
    apiFormat,
    isDemo: settings.isDemo,
    chat: {
      complete: async (call) => {
        const result = await exchangeChat(http, dialect, call);
        // A same-format caller's own body went as sent: the provider applies its own switch.
        const translated = nativeRequestOf(call.request)?.format !== apiFormat;
        return translated && thoughtsExcluded(call.request) ? withoutThoughts(result) : result;
      },
    },
    ...(embed ? { embeddings: { embed: (call) => exchangeEmbeddings(http, embed, call) } } : {}),
    proxy: proxyTransport(http, headers),
    unsupported: undefined,
    close: () => http.close(),
  };
}

/** The caller's headers (already stripped of every credential) over the provider's, so its key is the one sent. */
function proxyTransport(http: UpstreamHttp, headers: Record<string, string>): ProxyTransport {
  return {
    send: (call) =>
      http.send(
        {
          method: call.method,
          path: http.nativePath(call.path),
          rooted: true,
          headers: { ...headers, ...call.headers },
          ...(call.body === undefined ? {} : { body: call.body }),
        },
        http.signals(call.signal),
      ),
  };
}
