import type { ApiFormat } from "@gw/catalog";
import { ANTHROPIC_PROXY_ENDPOINTS } from "./anthropic/api.js";
import { anthropicProvider } from "./anthropic/index.js";
import { azureProvider } from "./azure/index.js";
import { bedrockProvider } from "./bedrock/index.js";
import { GEMINI_PROXY_ENDPOINTS } from "./google/api.js";
import { googleProvider } from "./google/index.js";
import { OPENAI_PROXY_ENDPOINTS } from "./openai-compatible/api.js";
import { openAiCompatibleProvider } from "./openai-compatible/index.js";
import type { ProxyEndpoint } from "./proxy-endpoint.js";
import type { ProviderSettings, UpstreamTimeouts } from "./settings.js";
import type { ProviderAdapter, ProviderFactory } from "./types.js";
import { vertexProvider } from "./vertex/index.js";

/**
 * Wire format → adapter. Every provider is served by its catalogue line's format: an OpenAI-compatible
 * host is one line in PROVIDERS (packages/catalog) and nothing here; a provider with a wire format of its
 * own is one folder (api.ts, chat.ts, stream.ts, index.ts) and one line in this table. See the edge
 * README, "Adding a provider".
 */
export const ADAPTERS_BY_FORMAT: Readonly<Record<ApiFormat, ProviderFactory>> = {
  openai: (settings, timeouts) => openAiCompatibleProvider(settings, timeouts, settings.openAiDialect),
  anthropic: anthropicProvider,
  gemini: googleProvider,
  bedrock: bedrockProvider,
  vertex: vertexProvider,
  azure: azureProvider,
};

/** Wire format → the native endpoints the provider proxy forwards (each listed in its provider's api.ts). */
export const PROXY_ENDPOINTS_BY_FORMAT: Readonly<Record<ApiFormat, readonly ProxyEndpoint[]>> = {
  openai: OPENAI_PROXY_ENDPOINTS,
  anthropic: ANTHROPIC_PROXY_ENDPOINTS,
  gemini: GEMINI_PROXY_ENDPOINTS,
  // A proxied native call would have to be signed for the gateway's AWS account: not offered.
  bedrock: [],
  // The clouds' native APIs are not proxied: their URLs name the gateway's own project and resource.
  vertex: [],
  azure: [],
};

/** The providers this edge can call: the configured ones, each with its adapter and connection pool. */
export class ProviderRegistry {
  private readonly adapters: ReadonlyMap<string, ProviderAdapter>;

  constructor(adapters: readonly ProviderAdapter[]) {
    this.adapters = new Map(adapters.map((adapter) => [adapter.id, adapter]));
  }

  static fromSettings(settings: readonly ProviderSettings[], timeouts: UpstreamTimeouts): ProviderRegistry {
    return new ProviderRegistry(
      settings.map((entry) => ADAPTERS_BY_FORMAT[entry.apiFormat](entry, timeouts)),
    );
  }

  get(id: string): ProviderAdapter | undefined {
    return this.adapters.get(id);
  }

  list(): ProviderAdapter[] {
    return [...this.adapters.values()];
  }

  async close(): Promise<void> {
    await Promise.all(this.list().map((adapter) => adapter.close()));
  }
}
