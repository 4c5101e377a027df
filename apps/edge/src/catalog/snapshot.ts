import type { GetSnapshotResponse, Model, Provider } from "@gw/proto/catalog/v1/catalog";

export type { Endpoint, Model, Pricing, Provider } from "@gw/proto/catalog/v1/catalog";

/** One catalogue version, indexed for the hot path's lookups. Immutable: a refresh swaps in a new one. */
export class CatalogSnapshot {
  readonly version: string;
  private readonly models: ReadonlyMap<string, Model>;
  private readonly aliases: ReadonlyMap<string, Model>;
  private readonly providers: ReadonlyMap<string, Provider>;

  constructor(response: GetSnapshotResponse) {
    this.version = response.version;
    this.models = new Map(response.models.map((model) => [model.id, model]));
    this.aliases = new Map(response.models.flatMap((model) => model.aliases.map((alias) => [alias, model])));
    this.providers = new Map(response.providers.map((provider) => [provider.id, provider]));
  }

  /** The model with this id, or the one this alias names (`anthropic/claude-3-5-haiku-latest`). */
  model(id: string): Model | undefined {
    return this.models.get(id) ?? this.aliases.get(id);
  }

  provider(id: string): Provider | undefined {
    return this.providers.get(id);
  }

  allModels(): Model[] {
    return [...this.models.values()];
  }
}
