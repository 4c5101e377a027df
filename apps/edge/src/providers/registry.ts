import { anthropicProvider } from "./anthropic/index.js";
import { deepseekProvider } from "./deepseek/index.js";
import { demoProvider } from "./demo/index.js";
import { fireworksProvider } from "./fireworks/index.js";
import { googleProvider } from "./google/index.js";
import { groqProvider } from "./groq/index.js";
import { mistralProvider } from "./mistral/index.js";
import { ollamaProvider } from "./ollama/index.js";
import { openaiProvider } from "./openai/index.js";
import { openAiCompatibleProvider } from "./openai-compatible/index.js";
import { openrouterProvider } from "./openrouter/index.js";
import type { ProviderSettings, UpstreamTimeouts } from "./settings.js";
import { togetherProvider } from "./together/index.js";
import type { ProviderAdapter, ProviderFactory } from "./types.js";
import { vllmProvider } from "./vllm/index.js";
import { xaiProvider } from "./xai/index.js";

/** Provider id (as in the catalogue) → adapter factory. A new provider is one folder and one line here. */
export const PROVIDER_FACTORIES: Readonly<Record<string, ProviderFactory>> = {
  openai: openaiProvider,
  anthropic: anthropicProvider,
  google: googleProvider,
  mistral: mistralProvider,
  groq: groqProvider,
  deepseek: deepseekProvider,
  together: togetherProvider,
  fireworks: fireworksProvider,
  xai: xaiProvider,
  openrouter: openrouterProvider,
  ollama: ollamaProvider,
  vllm: vllmProvider,
  demo: demoProvider,
};

/** The providers this edge can call: the configured ones, each with its adapter and connection pool. */
export class ProviderRegistry {
  private readonly adapters: ReadonlyMap<string, ProviderAdapter>;

  constructor(adapters: readonly ProviderAdapter[]) {
    this.adapters = new Map(adapters.map((adapter) => [adapter.id, adapter]));
  }

  static fromSettings(settings: readonly ProviderSettings[], timeouts: UpstreamTimeouts): ProviderRegistry {
    return new ProviderRegistry(settings.map((entry) => factoryFor(entry)(entry, timeouts)));
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

function factoryFor(settings: ProviderSettings): ProviderFactory {
  const factory = PROVIDER_FACTORIES[settings.id];
  if (factory) return factory;
  // A provider the catalogue gained before this table did: its wire format says whether the shared base fits.
  if (settings.apiFormat === "openai") return (entry, timeouts) => openAiCompatibleProvider(entry, timeouts);
  return (entry) => ({
    id: entry.id,
    apiFormat: entry.apiFormat,
    isDemo: entry.isDemo,
    chat: undefined,
    unsupported: `no adapter for provider ${entry.id} yet`,
    close: async () => {},
  });
}
