import type { Endpoint, Model, Pricing, RequestLimit } from "@gw/proto/catalog/v1/catalog";
import type { CatalogContent } from "./content.js";

/**
 * What operators changed, laid over the release's bundled seed. The merge rule (documented in
 * docs/catalog.md): the seed is re-read at every start, so a release's new models and corrections arrive;
 * every field an operator set wins over the seed's, field by field; a disabled model or endpoint is left
 * out of the snapshot; operator aliases win over seed aliases. Nothing an operator did is lost by a restart
 * or a new seed, and a field an operator never touched keeps following the seed.
 */
export interface ModelPatch {
  name?: string;
  kind?: "chat" | "embedding";
  createdUnix?: bigint;
  /** null clears a seed's model-specific limit. */
  modelLimit?: RequestLimit | null;
  disabled?: boolean;
}

export interface EndpointPatch {
  upstreamModel?: string;
  contextLength?: number;
  maxCompletionTokens?: number;
  pricing?: Partial<Pricing>;
  quantization?: string;
  isZdr?: boolean;
  mayTrainOnData?: boolean;
  supportedParameters?: string[];
  /** What the endpoint's model reads (text, image, file, audio), from an import. */
  inputModalities?: string[];
  disabled?: boolean;
}

export interface Overlay {
  /** By model id. */
  models: Map<string, ModelPatch>;
  /** By `<model id> <provider id>` (a space cannot occur in either). */
  endpoints: Map<string, EndpointPatch>;
  /** Alias -> model id. */
  aliases: Map<string, string>;
}

export function emptyOverlay(): Overlay {
  return { models: new Map(), endpoints: new Map(), aliases: new Map() };
}

export function endpointKey(modelId: string, providerId: string): string {
  return `${modelId} ${providerId}`;
}

export function splitEndpointKey(key: string): { modelId: string; providerId: string } {
  const space = key.indexOf(" ");
  return { modelId: key.slice(0, space), providerId: key.slice(space + 1) };
}

export function isEmptyOverlay(overlay: Overlay): boolean {
  return overlay.models.size === 0 && overlay.endpoints.size === 0 && overlay.aliases.size === 0;
}

/** What an endpoint the seed lacks gets for a field the operator did not give. */
export const NEW_ENDPOINT_DEFAULTS = { contextLength: 128_000, maxCompletionTokens: 16_384 } as const;

const ZERO_PRICING: Pricing = {
  promptPico: 0n,
  completionPico: 0n,
  requestPico: 0n,
  imagePico: 0n,
  cacheReadPico: 0n,
  cacheWritePico: 0n,
  reasoningPico: 0n,
  audioPico: 0n,
  audioOutputPico: 0n,
};

/** The effective catalogue: the seed with every operator patch applied (pure; the seed is not touched). */
export function applyOverlay(seed: CatalogContent, overlay: Overlay): CatalogContent {
  if (isEmptyOverlay(overlay)) return seed;
  const models = new Map<string, Model>(seed.models.map((model) => [model.id, structuredClone(model)]));
  for (const [modelId, patch] of overlay.models) {
    models.set(modelId, patchModel(models.get(modelId) ?? newModel(modelId), patch));
  }
  for (const [key, patch] of overlay.endpoints) {
    const { modelId, providerId } = splitEndpointKey(key);
    const model = models.get(modelId) ?? newModel(modelId);
    models.set(modelId, model);
    const at = model.endpoints.findIndex((endpoint) => endpoint.providerId === providerId);
    const patched = patchEndpoint(model.endpoints[at] ?? newEndpoint(modelId, providerId), patch);
    if (at === -1) model.endpoints.push(patched);
    else model.endpoints[at] = patched;
  }
  applyAliases(models, overlay.aliases);
  // An operator's endpoint at a provider a later seed dropped is left out rather than breaking the start.
  const providers = new Set(seed.providers.map((provider) => provider.id));
  const served = [...models.values()].flatMap((model) => served1(model, overlay, providers));
  // No version of its own: the merged content's digest is its version, so every change moves it.
  return { providers: seed.providers, models: served };
}

function served1(model: Model, overlay: Overlay, providers: ReadonlySet<string>): Model[] {
  if (overlay.models.get(model.id)?.disabled) return [];
  const endpoints = model.endpoints.filter(
    (endpoint) =>
      providers.has(endpoint.providerId) &&
      !overlay.endpoints.get(endpointKey(model.id, endpoint.providerId))?.disabled,
  );
  if (endpoints.length === 0) return [];
  return [{ ...model, endpoints, contextLength: Math.max(...endpoints.map((e) => e.contextLength)) }];
}

function applyAliases(models: Map<string, Model>, aliases: Map<string, string>): void {
  if (aliases.size === 0) return;
  for (const model of models.values()) model.aliases = model.aliases.filter((alias) => !aliases.has(alias));
  for (const [alias, modelId] of aliases) models.get(modelId)?.aliases.push(alias);
}

function newModel(id: string): Model {
  return {
    id,
    name: id,
    author: id.slice(0, id.indexOf("/")),
    kind: "chat",
    createdUnix: 0n,
    contextLength: 0,
    isFree: id.endsWith(":free"),
    endpoints: [],
    modelLimit: undefined,
    aliases: [],
  };
}

function patchModel(model: Model, patch: ModelPatch): Model {
  const next: Model = { ...model };
  if (patch.name !== undefined) next.name = patch.name;
  if (patch.kind !== undefined) next.kind = patch.kind;
  if (patch.createdUnix !== undefined) next.createdUnix = patch.createdUnix;
  if (patch.modelLimit !== undefined) next.modelLimit = patch.modelLimit ?? undefined;
  return next;
}

function newEndpoint(modelId: string, providerId: string): Endpoint {
  return {
    providerId,
    upstreamModel: modelId.slice(modelId.indexOf("/") + 1),
    contextLength: NEW_ENDPOINT_DEFAULTS.contextLength,
    maxCompletionTokens: NEW_ENDPOINT_DEFAULTS.maxCompletionTokens,
    pricing: { ...ZERO_PRICING },
    quantization: "",
    isZdr: false,
    supportedParameters: [],
    mayTrainOnData: false,
    inputModalities: ["text"],
  };
}

function patchEndpoint(endpoint: Endpoint, patch: EndpointPatch): Endpoint {
  const { disabled: _disabled, pricing, ...fields } = patch;
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  return {
    ...endpoint,
    ...defined,
    pricing: { ...ZERO_PRICING, ...endpoint.pricing, ...definedPricing(pricing) },
  };
}

function definedPricing(pricing: Partial<Pricing> | undefined): Partial<Pricing> {
  if (!pricing) return {};
  return Object.fromEntries(Object.entries(pricing).filter(([, value]) => value !== undefined));
}

// JSON for the override tables: bigints as digit strings (a price is never a binary float).

export function patchToJson(patch: ModelPatch | EndpointPatch): string {
  return JSON.stringify(patch, (_key, value: unknown) =>
    typeof value === "bigint" ? value.toString() : value,
  );
}

const BIGINT_FIELDS = new Set([
  "createdUnix",
  "promptPico",
  "completionPico",
  "requestPico",
  "imagePico",
  "cacheReadPico",
  "cacheWritePico",
  "reasoningPico",
  "audioPico",
  "audioOutputPico",
]);

/** Reads a stored patch back (the table's jsonb arrives parsed). */
export function patchFromJson<T extends ModelPatch | EndpointPatch>(stored: unknown): T {
  return JSON.parse(JSON.stringify(stored), (key, value: unknown) =>
    BIGINT_FIELDS.has(key) && typeof value === "string" ? BigInt(value) : value,
  ) as T;
}
