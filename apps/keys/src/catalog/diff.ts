import type { Endpoint, Model } from "@gw/proto/catalog/v1/catalog";
import type { CatalogContent } from "./content.js";

/** JSON-safe value of one field; bigints (prices, dates) as digit strings. */
export type DiffValue = string | number | boolean | null | string[] | { [key: string]: DiffValue };

/** One field that moved. `old: null` is an addition, `new: null` a removal (whole model or endpoint). */
export interface DiffEntry {
  /** `openai/gpt-4o` for a model field, `openai/gpt-4o@openai` for an endpoint's. */
  target: string;
  field: string;
  old: DiffValue;
  new: DiffValue;
}

/** Every field that differs between two catalogues, models in `after`'s order then removals. */
export function diffCatalog(before: CatalogContent, after: CatalogContent): DiffEntry[] {
  const old = new Map(before.models.map((model) => [model.id, model]));
  const entries: DiffEntry[] = [];
  for (const model of after.models) {
    const previous = old.get(model.id);
    if (!previous) entries.push({ target: model.id, field: "*", old: null, new: modelValue(model) });
    else entries.push(...diffModel(previous, model));
  }
  const kept = new Set(after.models.map((model) => model.id));
  for (const model of before.models) {
    if (!kept.has(model.id))
      entries.push({ target: model.id, field: "*", old: modelValue(model), new: null });
  }
  return entries;
}

function diffModel(before: Model, after: Model): DiffEntry[] {
  const entries = diffFields(before.id, modelFields(before), modelFields(after));
  const old = new Map(before.endpoints.map((endpoint) => [endpoint.providerId, endpoint]));
  for (const endpoint of after.endpoints) {
    const target = `${after.id}@${endpoint.providerId}`;
    const previous = old.get(endpoint.providerId);
    if (!previous) entries.push({ target, field: "*", old: null, new: endpointFields(endpoint) });
    else entries.push(...diffFields(target, endpointFields(previous), endpointFields(endpoint)));
  }
  const kept = new Set(after.endpoints.map((endpoint) => endpoint.providerId));
  for (const endpoint of before.endpoints) {
    if (!kept.has(endpoint.providerId)) {
      entries.push({
        target: `${after.id}@${endpoint.providerId}`,
        field: "*",
        old: endpointFields(endpoint),
        new: null,
      });
    }
  }
  return entries;
}

function diffFields(
  target: string,
  before: Record<string, DiffValue>,
  after: Record<string, DiffValue>,
): DiffEntry[] {
  return Object.keys(after)
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({ target, field, old: before[field] ?? null, new: after[field] ?? null }));
}

function modelFields(model: Model): Record<string, DiffValue> {
  return {
    name: model.name,
    kind: model.kind,
    createdUnix: model.createdUnix.toString(),
    contextLength: model.contextLength,
    modelLimit: model.modelLimit ? { ...model.modelLimit } : null,
    aliases: [...model.aliases],
  };
}

function modelValue(model: Model): DiffValue {
  return { ...modelFields(model), endpoints: model.endpoints.map((endpoint) => endpoint.providerId) };
}

function endpointFields(endpoint: Endpoint): Record<string, DiffValue> {
  const fields: Record<string, DiffValue> = {
    upstreamModel: endpoint.upstreamModel,
    contextLength: endpoint.contextLength,
    maxCompletionTokens: endpoint.maxCompletionTokens,
    quantization: endpoint.quantization,
    isZdr: endpoint.isZdr,
    mayTrainOnData: endpoint.mayTrainOnData,
    supportedParameters: [...endpoint.supportedParameters],
    inputModalities: [...endpoint.inputModalities],
  };
  for (const [name, pico] of Object.entries(endpoint.pricing ?? {}))
    fields[`pricing.${name}`] = pico.toString();
  return fields;
}
