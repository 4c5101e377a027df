import { INPUT_MODALITIES, inputModalitiesOf } from "@gw/catalog";
import type { Pricing, RequestLimit } from "@gw/proto/catalog/v1/catalog";
import type { CatalogContent } from "./content.js";
import { type EndpointPatch, endpointKey, type Overlay } from "./overlay.js";

// The operator's edits as overlay changes. Each returns the problems it found (nothing is written when
// there are any); the invariant check of the resulting catalogue happens after, in changeCatalog.

const MODEL_ID = /^[a-z0-9][a-z0-9._-]*\/[\x21-\x7e]{1,200}$/;
const UPSTREAM_MODEL = /^[\x21-\x7e]{1,256}$/;

export interface PriceEdit {
  modelId: string;
  providerId: string;
  /** Only the prices given change; the others keep their current value (0 on a new endpoint). */
  pricing: Partial<Pricing>;
  /** Required when the model has no endpoint at this provider yet (else the id's slug is sent). */
  upstreamModel?: string | undefined;
  contextLength?: number | undefined;
  maxCompletionTokens?: number | undefined;
  /** Replaces what the endpoint's model reads (OpenRouter's input_modalities names; text always). */
  inputModalities?: readonly string[] | undefined;
}

export function setPrice(edit: PriceEdit): (overlay: Overlay, current: CatalogContent) => string[] {
  return (overlay, current) => {
    const problems = [
      ...checkModelId(edit.modelId),
      ...checkProvider(current, edit.providerId),
      ...checkPricing(edit.pricing, edit.modelId),
    ];
    if (edit.upstreamModel !== undefined && !UPSTREAM_MODEL.test(edit.upstreamModel)) {
      problems.push(`upstream model must be 1-256 printable characters: ${edit.upstreamModel}`);
    }
    problems.push(...checkLimit("context length", edit.contextLength));
    problems.push(...checkLimit("max completion tokens", edit.maxCompletionTokens));
    problems.push(...checkModalities(edit.inputModalities));
    const key = endpointKey(edit.modelId, edit.providerId);
    // Modalities alone describe an endpoint, they do not add one: a new endpoint needs its prices.
    if (!hasPrice(edit.pricing) && !servedOrPatched(current, overlay, edit.modelId, edit.providerId))
      problems.push(`unknown endpoint: ${edit.modelId} at ${edit.providerId} (name its prices to add it)`);
    if (problems.length > 0) return problems;
    const patch: EndpointPatch = { ...overlay.endpoints.get(key) };
    patch.pricing = { ...patch.pricing, ...edit.pricing };
    if (edit.inputModalities !== undefined) patch.inputModalities = inputModalitiesOf(edit.inputModalities);
    if (edit.upstreamModel !== undefined) patch.upstreamModel = edit.upstreamModel;
    if (edit.contextLength !== undefined) patch.contextLength = edit.contextLength;
    if (edit.maxCompletionTokens !== undefined) patch.maxCompletionTokens = edit.maxCompletionTokens;
    overlay.endpoints.set(key, patch);
    return [];
  };
}

export interface DataPolicyEdit {
  modelId: string;
  providerId: string;
  /** Zero data retention at this endpoint, as the operator's arrangement with the provider makes it. */
  isZdr?: boolean | undefined;
  mayTrainOnData?: boolean | undefined;
  /** A spec quantization, or "" for one the provider does not publish. */
  quantization?: string | undefined;
}

/**
 * Sets an endpoint's data policy and quantization: facts of the operator's own contract with the provider
 * (Azure's modified abuse monitoring, a Vertex project without caching) that no seed can know. Only an
 * endpoint the catalogue serves, so a typo cannot create a priceless endpoint.
 */
export function setDataPolicy(edit: DataPolicyEdit): (overlay: Overlay, current: CatalogContent) => string[] {
  return (overlay, current) => {
    const served = current.models
      .find((model) => model.id === edit.modelId)
      ?.endpoints.some((endpoint) => endpoint.providerId === edit.providerId);
    if (!served) return [`unknown endpoint: ${edit.modelId} at ${edit.providerId}`];
    const key = endpointKey(edit.modelId, edit.providerId);
    const patch: EndpointPatch = { ...overlay.endpoints.get(key) };
    if (edit.isZdr !== undefined) patch.isZdr = edit.isZdr;
    if (edit.mayTrainOnData !== undefined) patch.mayTrainOnData = edit.mayTrainOnData;
    if (edit.quantization !== undefined) patch.quantization = edit.quantization;
    overlay.endpoints.set(key, patch);
    return [];
  };
}

export interface DisableEdit {
  modelId: string;
  /** Absent: the whole model. */
  providerId?: string | undefined;
  disabled: boolean;
}

/** Disables (or enables again) a model or one of its endpoints; disabled ones leave the snapshot. */
export function setDisabled(edit: DisableEdit): (overlay: Overlay, current: CatalogContent) => string[] {
  return (overlay, current) => {
    if (edit.providerId === undefined) {
      const patch = overlay.models.get(edit.modelId);
      const known = current.models.some((model) => model.id === edit.modelId) || patch?.disabled === true;
      if (!known) return [`unknown model: ${edit.modelId}`];
      overlay.models.set(edit.modelId, { ...patch, disabled: edit.disabled });
      return [];
    }
    const key = endpointKey(edit.modelId, edit.providerId);
    const patch = overlay.endpoints.get(key);
    const served = current.models
      .find((model) => model.id === edit.modelId)
      ?.endpoints.some((endpoint) => endpoint.providerId === edit.providerId);
    if (!served && patch?.disabled !== true)
      return [`unknown endpoint: ${edit.modelId} at ${edit.providerId}`];
    overlay.endpoints.set(key, { ...patch, disabled: edit.disabled });
    return [];
  };
}

/**
 * Sets a model's request limit (`limit: null` removes it); the operator's value survives a re-seed. The
 * model must be served (or have an operator patch): a limit on a typo would limit nothing.
 */
export function setModelLimit(
  modelId: string,
  limit: RequestLimit | null,
): (overlay: Overlay, current: CatalogContent) => string[] {
  return (overlay, current) => {
    const patch = overlay.models.get(modelId);
    if (!current.models.some((model) => model.id === modelId) && patch === undefined)
      return [`unknown model: ${modelId}`];
    overlay.models.set(modelId, { ...patch, modelLimit: limit });
    return [];
  };
}

/** Points an alias at a model (`modelId: null` removes an operator alias). */
export function setAlias(
  alias: string,
  modelId: string | null,
): (overlay: Overlay, current: CatalogContent) => string[] {
  return (overlay, current) => {
    if (modelId === null) {
      if (!overlay.aliases.has(alias)) return [`no operator alias ${alias}`];
      overlay.aliases.delete(alias);
      return [];
    }
    const problems = checkModelId(alias).map((problem) => `alias: ${problem}`);
    if (!current.models.some((model) => model.id === modelId)) problems.push(`unknown model: ${modelId}`);
    if (problems.length === 0) overlay.aliases.set(alias, modelId);
    return problems;
  };
}

/** One model as an import file describes it, with the endpoints it lists. */
export interface ImportedModel {
  id: string;
  name?: string | undefined;
  kind: "chat" | "embedding";
  modelLimit?: RequestLimit | undefined;
  endpoints: Array<{ providerId: string } & EndpointPatch>;
}

/**
 * Upserts imported models: each field the file gives becomes the operator's (so it survives a re-seed),
 * endpoints at other providers and fields the file does not give stay as they are.
 */
export function importModels(
  models: readonly ImportedModel[],
): (overlay: Overlay, current: CatalogContent) => string[] {
  return (overlay, current) => {
    const problems: string[] = [];
    for (const model of models) {
      problems.push(...checkModelId(model.id));
      for (const { providerId, ...patch } of model.endpoints) {
        problems.push(...checkProvider(current, providerId).map((problem) => `${model.id}: ${problem}`));
        problems.push(...checkPricing(patch.pricing ?? {}, model.id));
      }
    }
    if (problems.length > 0) return problems;
    for (const model of models) {
      const patch = { ...overlay.models.get(model.id), kind: model.kind };
      if (model.name !== undefined) Object.assign(patch, { name: model.name });
      if (model.modelLimit !== undefined) Object.assign(patch, { modelLimit: model.modelLimit });
      overlay.models.set(model.id, patch);
      for (const { providerId, ...fields } of model.endpoints) {
        const key = endpointKey(model.id, providerId);
        const previous = overlay.endpoints.get(key);
        overlay.endpoints.set(key, {
          ...previous,
          ...fields,
          pricing: { ...previous?.pricing, ...fields.pricing },
        });
      }
    }
    return [];
  };
}

function checkModelId(id: string): string[] {
  return MODEL_ID.test(id) ? [] : [`model id must be <author>/<slug> in printable characters: ${id}`];
}

function checkProvider(current: CatalogContent, providerId: string): string[] {
  return current.providers.some((provider) => provider.id === providerId)
    ? []
    : [`unknown provider: ${providerId}`];
}

function checkPricing(pricing: Partial<Pricing>, modelId: string): string[] {
  const problems: string[] = [];
  for (const [field, pico] of Object.entries(pricing)) {
    if (pico !== undefined && pico < 0n) problems.push(`${modelId}: ${field} must not be negative`);
  }
  if (modelId.endsWith(":free") && Object.values(pricing).some((pico) => pico !== undefined && pico > 0n)) {
    problems.push(`${modelId}: a :free model must cost nothing`);
  }
  return problems;
}

function hasPrice(pricing: Partial<Pricing>): boolean {
  return Object.values(pricing).some((pico) => pico !== undefined);
}

function servedOrPatched(
  current: CatalogContent,
  overlay: Overlay,
  modelId: string,
  providerId: string,
): boolean {
  if (overlay.endpoints.has(endpointKey(modelId, providerId))) return true;
  return (
    current.models
      .find((model) => model.id === modelId)
      ?.endpoints.some((endpoint) => endpoint.providerId === providerId) ?? false
  );
}

/** Known names, text among them, each once: the same rule as the admin route's schema, for other callers. */
function checkModalities(modalities: readonly string[] | undefined): string[] {
  if (modalities === undefined) return [];
  const known = new Set<string>(INPUT_MODALITIES);
  const problems = modalities
    .filter((name) => !known.has(name))
    .map((name) => `input modality must be one of ${INPUT_MODALITIES.join(", ")}: ${name}`);
  if (!modalities.includes("text")) problems.push("input modalities must include text");
  if (new Set(modalities).size !== modalities.length) problems.push("input modalities must not repeat");
  return problems;
}

function checkLimit(name: string, value: number | undefined): string[] {
  if (value === undefined || (Number.isSafeInteger(value) && value >= 1 && value <= 10_000_000)) return [];
  return [`${name} must be a whole number from 1 to 10,000,000: ${value}`];
}
