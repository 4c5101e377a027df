import { inputModalitiesOf } from "@gw/catalog";
import type { Pricing } from "@gw/proto/catalog/v1/catalog";
import type { CatalogContent } from "../content.js";
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
  topLevelKeys,
  usdToPicoChecked,
} from "./common.js";
import { cloudSkipReason, mapProvider, modelName, upstreamName } from "./litellm-names.js";

// LiteLLM's model_prices_and_context_window.json: one object keyed by model name, each entry with its
// `litellm_provider`, `mode`, USD-per-token prices and token limits (sample and its README in the shared
// reference folder). Facts carried over: the field names and that prices are USD per token.

const PRICE_FIELDS: ReadonlyArray<[string, keyof Pricing]> = [
  ["input_cost_per_token", "promptPico"],
  ["output_cost_per_token", "completionPico"],
  ["cache_read_input_token_cost", "cacheReadPico"],
  ["cache_creation_input_token_cost", "cacheWritePico"],
  ["output_cost_per_reasoning_token", "reasoningPico"],
  ["input_cost_per_image", "imagePico"],
  ["input_cost_per_request", "requestPico"],
  ["input_cost_per_audio_token", "audioPico"],
  ["output_cost_per_audio_token", "audioOutputPico"],
];

const MODES: Readonly<Record<string, "chat" | "embedding">> = { chat: "chat", embedding: "embedding" };

export interface LiteLlmOptions extends ImportOptions {
  /** The catalogue now: a dated or upstream name it already serves maps onto that model. */
  current: CatalogContent;
}

export function parseLiteLlm(text: string, options: LiteLlmOptions): ParsedImport {
  const result: ParsedImport = { models: [], problems: [], skipped: [] };
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    result.problems.push(`not JSON: ${(error as Error).message}`);
    return result;
  }
  const entries = isRecord(document) ? Object.entries(document).filter(([key]) => key !== "sample_spec") : [];
  if (entries.length === 0 || !entries.some(([, entry]) => isRecord(entry) && "litellm_provider" in entry)) {
    result.problems.push(
      "not LiteLLM's model_prices_and_context_window.json: expected an object of model entries with litellm_provider",
    );
    return result;
  }
  if (entries.length > MAX_IMPORT_ENTRIES) {
    result.problems.push(tooManyEntries(entries.length));
    return result;
  }
  for (const key of duplicates(topLevelKeys(text))) result.problems.push(`duplicate id: ${key}`);
  const keys = new Set(entries.map(([key]) => key));
  const byTarget = new Map<string, Candidate>();
  for (const [key, entry] of entries) {
    const candidate = entryModel(key, entry, { ...options, keys }, result);
    if (!candidate) continue;
    const target = `${candidate.model.id}@${candidate.model.endpoints[0]?.providerId}`;
    const earlier = byTarget.get(target);
    if (earlier === undefined) byTarget.set(target, candidate);
    else {
      const kept = oneOf(earlier, candidate, target, result);
      if (kept) byTarget.set(target, kept);
    }
  }
  result.models.push(...[...byTarget.values()].map((candidate) => candidate.model));
  return result;
}

/** One entry of the file as the model it imports. */
interface Candidate {
  key: string;
  model: ImportedModel;
  /** The id was reached through a catalogue alias (a dated name), not named by the entry itself. */
  viaAlias: boolean;
}

/**
 * Two entries landing on one model at one provider: with the same prices and limits they are two names
 * of one endpoint (`mistral-large-latest` and its dated name), so one is kept; otherwise the entry that
 * names the model itself wins over one reaching it through an alias (Azure's `gpt-4o` over
 * `gpt-4o-2024-11-20`, an older snapshot's price), and when neither does the file is ambiguous.
 */
function oneOf(a: Candidate, b: Candidate, target: string, result: ParsedImport): Candidate | undefined {
  if (sameTerms(a.model, b.model)) {
    result.skipped.push(`${b.key}: another name of ${a.key} (${target}), same prices and limits`);
    return a;
  }
  if (a.viaAlias !== b.viaAlias) {
    const [kept, left] = a.viaAlias ? [b, a] : [a, b];
    result.skipped.push(
      `${left.key}: reaches ${target} through an alias; ${kept.key} names it and is imported`,
    );
    return kept;
  }
  result.problems.push(`duplicate id: ${b.key} and ${a.key} are both ${target}`);
  return undefined;
}

/** The same prices and limits: all an endpoint takes from the file besides its upstream name. */
function sameTerms(a: ImportedModel, b: ImportedModel): boolean {
  const terms = (m: ImportedModel) => {
    const { upstreamModel: _name, ...rest } = m.endpoints[0] ?? { providerId: "" };
    return JSON.stringify(rest, (_key, value: unknown) => (typeof value === "bigint" ? `${value}` : value));
  };
  return a.kind === b.kind && terms(a) === terms(b);
}

function entryModel(
  key: string,
  entry: unknown,
  options: LiteLlmOptions & { keys: ReadonlySet<string> },
  result: ParsedImport,
): Candidate | undefined {
  if (!isRecord(entry) || typeof entry.litellm_provider !== "string") {
    result.problems.push(`${key}: not a model entry (no litellm_provider)`);
    return undefined;
  }
  const kind = MODES[String(entry.mode ?? "chat")];
  if (!kind) {
    result.skipped.push(`${key}: mode ${String(entry.mode)} is not served (chat and embedding only)`);
    return undefined;
  }
  const mapped = mapProvider(entry.litellm_provider);
  const providerId = mapped?.provider ?? entry.litellm_provider;
  if (!options.knownProviders.has(providerId)) {
    if (options.skipUnknownProviders)
      result.skipped.push(`${key}: provider ${providerId} is not in the catalogue`);
    else result.problems.push(`${key}: unknown provider: ${providerId}`);
    return undefined;
  }
  const cloudSkip = cloudSkipReason(key, providerId, options.keys);
  if (cloudSkip !== undefined) {
    result.skipped.push(`${key}: ${cloudSkip}`);
    return undefined;
  }
  const upstreamModel = upstreamName(key, entry.litellm_provider);
  const problems = result.problems;
  const pricing: Partial<Pricing> = {};
  for (const [field, name] of PRICE_FIELDS) {
    const pico = usdToPicoChecked(entry[field], `${key}.${field}`, problems);
    if (pico !== undefined) pricing[name] = pico;
  }
  const contextLength = tokensChecked(
    entry.max_input_tokens ?? entry.max_tokens,
    `${key}.max_input_tokens`,
    problems,
  );
  const maxOutput = tokensChecked(entry.max_output_tokens, `${key}.max_output_tokens`, problems);
  const named = modelName(providerId, upstreamModel, mapped?.author);
  const { id, viaAlias } = modelId(options.current, providerId, named.author, upstreamModel, named.name);
  const endpoint: { providerId: string } & EndpointPatch = { providerId, upstreamModel, pricing };
  if (contextLength !== undefined) endpoint.contextLength = contextLength;
  if (kind === "embedding") endpoint.maxCompletionTokens = 0;
  // LiteLLM's input limit is the context the gateway checks; an output cap above it is cut to it.
  else if (maxOutput !== undefined)
    endpoint.maxCompletionTokens = Math.min(maxOutput, contextLength ?? maxOutput);
  if (!servedAt(options.current, id, providerId)) endpoint.supportedParameters = parameters(entry, kind);
  const modalities = kind === "embedding" ? ["text"] : liteLlmModalities(entry);
  if (modalities !== undefined) endpoint.inputModalities = modalities;
  return { key, viaAlias, model: { id, kind, endpoints: [endpoint] } };
}

/**
 * The catalogue id for an imported name: the model already served under that upstream name (or alias)
 * if there is one, so importing the seed's own list changes prices and adds nothing twice; else
 * `<author>/<name>` for a first-party provider, a host's `<org>/<model>` names as they are, and
 * `<provider>/<name>` for the rest. Lower case, as catalogue ids are.
 */
function modelId(
  current: CatalogContent,
  providerId: string,
  author: string | undefined,
  upstream: string,
  name: string,
): { id: string; viaAlias: boolean } {
  const served = current.models.find((model) =>
    model.endpoints.some(
      (endpoint) => endpoint.providerId === providerId && endpoint.upstreamModel === upstream,
    ),
  );
  if (served) return { id: served.id, viaAlias: false };
  const candidate = (
    author
      ? `${author}/${name}`
      : name.includes("/") && !name.startsWith("accounts/")
        ? name
        : `${providerId}/${name.slice(name.lastIndexOf("/") + 1)}`
  ).toLowerCase();
  const aliased = current.models.find((model) => model.aliases.includes(candidate));
  return aliased ? { id: aliased.id, viaAlias: true } : { id: candidate, viaAlias: false };
}

function servedAt(current: CatalogContent, id: string, providerId: string): boolean {
  return current.models.some(
    (model) => model.id === id && model.endpoints.some((endpoint) => endpoint.providerId === providerId),
  );
}

/** The request parameters LiteLLM's `supports_*` flags stand for (only for endpoints new to the catalogue). */
function parameters(entry: Record<string, unknown>, kind: "chat" | "embedding"): string[] {
  if (kind === "embedding") return ["dimensions", "encoding_format", "user"];
  const list = ["max_tokens", "temperature", "top_p", "stop", "stream", "seed"];
  if (entry.supports_function_calling === true) list.push("tools", "tool_choice");
  if (entry.supports_parallel_function_calling === true) list.push("parallel_tool_calls");
  if (entry.supports_response_schema === true) list.push("response_format", "structured_outputs");
  if (entry.supports_reasoning === true) list.push("reasoning", "include_reasoning");
  // OpenRouter's marker for the provider's own web search (the web plugin uses it where it can price it).
  if (entry.supports_web_search === true) list.push("web_search_options");
  return list;
}

const MODALITY_FLAGS = [
  "supports_vision",
  "supports_pdf_input",
  "supports_audio_input",
  "supported_modalities",
  "input_cost_per_audio_token",
] as const;

/**
 * What the model reads, from LiteLLM's capability flags (packages/catalog scripts/litellm-sample.mjs
 * reads them the same way): an input audio price or `supported_modalities` listing audio also means audio.
 * An entry with none of the flags says nothing about media: undefined, the catalogue's stay.
 */
export function liteLlmModalities(entry: Record<string, unknown>): string[] | undefined {
  if (!MODALITY_FLAGS.some((flag) => flag in entry)) return undefined;
  const listed = Array.isArray(entry.supported_modalities) ? entry.supported_modalities : [];
  const audio =
    entry.supports_audio_input === true ||
    entry.input_cost_per_audio_token !== undefined ||
    listed.includes("audio");
  return inputModalitiesOf([
    ...(entry.supports_vision === true ? ["image"] : []),
    ...(entry.supports_pdf_input === true ? ["file"] : []),
    ...(audio ? ["audio"] : []),
  ]);
}
