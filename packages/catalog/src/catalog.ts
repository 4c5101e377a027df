import { MODELS } from "./models/index.js";
import { PROVIDERS } from "./providers.js";
import type { CatalogData, Endpoint, Model, ModelVariant, ProviderInfo } from "./types.js";
import { parseModelId } from "./variants.js";

export const CATALOG: CatalogData = { providers: PROVIDERS, models: MODELS };

export interface ResolvedModel {
  readonly model: Model;
  /** `floor` and `nitro` pick among the model's endpoints; `free` is its own catalogue entry. */
  readonly variant: ModelVariant | null;
}

/** Map-backed lookups over one catalogue (the bundled data, or one rebuilt from a gRPC snapshot). */
export interface CatalogIndex {
  readonly data: CatalogData;
  findModel(id: string): Model | undefined;
  resolveModel(id: string): ResolvedModel | undefined;
  findProvider(id: string): ProviderInfo | undefined;
  findEndpoint(modelId: string, providerId: string): Endpoint | undefined;
}

export function indexCatalog(data: CatalogData): CatalogIndex {
  const models = new Map(data.models.map((m) => [m.id, m]));
  for (const m of data.models) for (const alias of m.aliases) if (!models.has(alias)) models.set(alias, m);
  const providers = new Map(data.providers.map((p) => [p.id, p]));

  const resolveModel = (id: string): ResolvedModel | undefined => {
    // An alias resolves to its model (the map holds both).
    const exact = models.get(id);
    if (exact) return { model: exact, variant: exact.isFree ? "free" : null };
    const { baseId, variant } = parseModelId(id);
    // `:free` only exists where the catalogue lists a free entry; the others select endpoints of the base.
    if (variant === "floor" || variant === "nitro") {
      const base = models.get(baseId);
      if (base) return { model: base, variant };
    }
    return undefined;
  };

  return {
    data,
    resolveModel,
    findModel: (id) => resolveModel(id)?.model,
    findProvider: (id) => providers.get(id),
    findEndpoint: (modelId, providerId) =>
      resolveModel(modelId)?.model.endpoints.find((e) => e.providerId === providerId),
  };
}

let bundled: CatalogIndex | undefined;

function bundledIndex(): CatalogIndex {
  bundled ??= indexCatalog(CATALOG);
  return bundled;
}

/** Looks a model up in the bundled catalogue; `x:floor` and `x:nitro` find `x`, `x:free` only itself. */
export function findModel(id: string): Model | undefined {
  return bundledIndex().findModel(id);
}

export function resolveModel(id: string): ResolvedModel | undefined {
  return bundledIndex().resolveModel(id);
}

export function findProvider(id: string): ProviderInfo | undefined {
  return bundledIndex().findProvider(id);
}
