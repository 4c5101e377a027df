import { inputModalitiesOf } from "@gw/catalog";
import type { Pricing } from "@gw/proto/catalog/v1/catalog";
import type { ImportedModel } from "../operations.js";
import type { EndpointPatch } from "../overlay.js";
import {
  duplicates,
  type ImportOptions,
  isRecord,
  MAX_IMPORT_ENTRIES,
  type ParsedImport,
  tokensChecked,
  tooManyEntries,
  usdToPicoChecked,
} from "./common.js";

// OpenRouter's `GET /api/v1/models` answer (openrouter.ai/docs/models): `{ "data": [Model] }`, each with
// `id`, `name`, `created`, `context_length`, `pricing` (USD per token or per unit, as decimal strings:
// prompt, completion, request, image, input_cache_read, input_cache_write, internal_reasoning),
// `top_provider` (context_length, max_completion_tokens), `supported_parameters` and `architecture`.

const PRICE_FIELDS: ReadonlyArray<[string, keyof Pricing]> = [
  ["prompt", "promptPico"],
  ["completion", "completionPico"],
  ["request", "requestPico"],
  ["image", "imagePico"],
  ["input_cache_read", "cacheReadPico"],
  ["input_cache_write", "cacheWritePico"],
  ["internal_reasoning", "reasoningPico"],
];

export interface OpenRouterOptions extends ImportOptions {
  /** The provider every listed model is served through; OpenRouter itself unless said otherwise. */
  providerId?: string | undefined;
}

export function parseOpenRouter(text: string, options: OpenRouterOptions): ParsedImport {
  const result: ParsedImport = { models: [], problems: [], skipped: [] };
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    result.problems.push(`not JSON: ${(error as Error).message}`);
    return result;
  }
  if (!isRecord(document) || !Array.isArray(document.data)) {
    result.problems.push('not OpenRouter\'s GET /api/v1/models answer: expected { "data": [models] }');
    return result;
  }
  if (document.data.length > MAX_IMPORT_ENTRIES) {
    result.problems.push(tooManyEntries(document.data.length));
    return result;
  }
  const providerId = options.providerId ?? "openrouter";
  if (!options.knownProviders.has(providerId)) {
    result.problems.push(`unknown provider: ${providerId}`);
    return result;
  }
  const ids = document.data.map((entry) => (isRecord(entry) ? entry.id : undefined));
  for (const id of duplicates(ids.filter((id): id is string => typeof id === "string"))) {
    result.problems.push(`duplicate id: ${id}`);
  }
  document.data.forEach((entry, index) => {
    const model = entryModel(entry, index, providerId, result.problems);
    if (model) result.models.push(model);
  });
  return result;
}

function entryModel(
  entry: unknown,
  index: number,
  providerId: string,
  problems: string[],
): ImportedModel | undefined {
  if (!isRecord(entry) || typeof entry.id !== "string" || entry.id === "") {
    problems.push(`data[${index}]: not a model (no string id)`);
    return undefined;
  }
  const id = entry.id;
  if (!isRecord(entry.pricing)) {
    problems.push(`${id}: no pricing object`);
    return undefined;
  }
  const pricing: Partial<Pricing> = {};
  for (const [field, name] of PRICE_FIELDS) {
    const pico = usdToPicoChecked(entry.pricing[field], `${id}.pricing.${field}`, problems);
    if (pico !== undefined) pricing[name] = pico;
  }
  const top = isRecord(entry.top_provider) ? entry.top_provider : {};
  const contextLength = tokensChecked(
    top.context_length ?? entry.context_length,
    `${id}.context_length`,
    problems,
  );
  const maxOutput = tokensChecked(
    top.max_completion_tokens,
    `${id}.top_provider.max_completion_tokens`,
    problems,
  );
  const kind = embeddingModel(entry) ? "embedding" : "chat";
  const endpoint: { providerId: string } & EndpointPatch = { providerId, upstreamModel: id, pricing };
  if (contextLength !== undefined) endpoint.contextLength = contextLength;
  if (kind === "embedding") endpoint.maxCompletionTokens = 0;
  else if (maxOutput !== undefined)
    endpoint.maxCompletionTokens = Math.min(maxOutput, contextLength ?? maxOutput);
  if (Array.isArray(entry.supported_parameters)) {
    endpoint.supportedParameters = entry.supported_parameters.filter(
      (p): p is string => typeof p === "string",
    );
  }
  const architecture = isRecord(entry.architecture) ? entry.architecture : {};
  if (Array.isArray(architecture.input_modalities)) {
    endpoint.inputModalities = inputModalitiesOf(
      architecture.input_modalities.filter((m): m is string => typeof m === "string"),
    );
  }
  const model: ImportedModel = { id, kind, endpoints: [endpoint] };
  if (typeof entry.name === "string" && entry.name !== "") model.name = entry.name;
  return model;
}

function embeddingModel(entry: Record<string, unknown>): boolean {
  const architecture = isRecord(entry.architecture) ? entry.architecture : {};
  const outputs = architecture.output_modalities;
  return Array.isArray(outputs) && outputs.includes("embeddings");
}
