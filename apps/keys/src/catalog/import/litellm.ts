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

// LiteLLM's model_prices_and_context_window.json: one object keyed by model name, each entry with its
// `litellm_provider`, `mode`, USD-per-token prices and token limits (sample and its README in the shared
// reference folder). Facts carried over: the field names and that prices are USD per token.

/** LiteLLM provider name -> our provider id, and the model author for first-party providers. */
const PROVIDERS: Readonly<Record<string, { provider: string; author?: string }>> = {
  openai: { provider: "openai", author: "openai" },
  anthropic: { provider: "anthropic", author: "anthropic" },
  gemini: { provider: "google", author: "google" },
  xai: { provider: "xai", author: "x-ai" },
  deepseek: { provider: "deepseek", author: "deepseek" },
  mistral: { provider: "mistral", author: "mistralai" },
  groq: { provider: "groq" },
  together_ai: { provider: "together" },
  fireworks_ai: { provider: "fireworks" },
  openrouter: { provider: "openrouter" },
  ollama: { provider: "ollama" },
  ollama_chat: { provider: "ollama" },
  hosted_vllm: { provider: "vllm" },
};

const PRICE_FIELDS: ReadonlyArray<[string, keyof Pricing]> = [
  ["input_cost_per_token", "promptPico"],
  ["output_cost_per_token", "completionPico"],
  ["cache_read_input_token_cost", "cacheReadPico"],
  ["cache_creation_input_token_cost", "cacheWritePico"],
  ["output_cost_per_reasoning_token", "reasoningPico"],
  ["input_cost_per_image", "imagePico"],
  ["input_cost_per_request", "requestPico"],
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
  const byTarget = new Map<string, string>();
  for (const [key, entry] of entries) {
    const model = entryModel(key, entry, options, result);
    if (!model) continue;
    const target = `${model.id}@${model.endpoints[0]?.providerId}`;
    const earlier = byTarget.get(target);
    if (earlier !== undefined) result.problems.push(`duplicate id: ${key} and ${earlier} are both ${target}`);
    byTarget.set(target, key);
    result.models.push(model);
  }
  return result;
}

function entryModel(
  key: string,
  entry: unknown,
  options: LiteLlmOptions,
  result: ParsedImport,
): ImportedModel | undefined {
  if (!isRecord(entry) || typeof entry.litellm_provider !== "string") {
    result.problems.push(`${key}: not a model entry (no litellm_provider)`);
    return undefined;
  }
  const kind = MODES[String(entry.mode ?? "chat")];
  if (!kind) {
    result.skipped.push(`${key}: mode ${String(entry.mode)} is not served (chat and embedding only)`);
    return undefined;
  }
  const mapped = PROVIDERS[entry.litellm_provider];
  const providerId = mapped?.provider ?? entry.litellm_provider;
  if (!options.knownProviders.has(providerId)) {
    if (options.skipUnknownProviders)
      result.skipped.push(`${key}: provider ${providerId} is not in the catalogue`);
    else result.problems.push(`${key}: unknown provider: ${providerId}`);
    return undefined;
  }
  const upstreamModel = stripPrefix(key, entry.litellm_provider);
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
  const id = modelId(options.current, providerId, mapped?.author, upstreamModel);
  const endpoint: { providerId: string } & EndpointPatch = { providerId, upstreamModel, pricing };
  if (contextLength !== undefined) endpoint.contextLength = contextLength;
  if (kind === "embedding") endpoint.maxCompletionTokens = 0;
  // LiteLLM's input limit is the context the gateway checks; an output cap above it is cut to it.
  else if (maxOutput !== undefined)
    endpoint.maxCompletionTokens = Math.min(maxOutput, contextLength ?? maxOutput);
  if (!servedAt(options.current, id, providerId)) endpoint.supportedParameters = parameters(entry, kind);
  return { id, kind, endpoints: [endpoint] };
}

function stripPrefix(key: string, litellmProvider: string): string {
  const slash = key.indexOf("/");
  if (slash === -1) return key;
  const prefix = key.slice(0, slash);
  return prefix === litellmProvider || PROVIDERS[prefix] !== undefined ? key.slice(slash + 1) : key;
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
  name: string,
): string {
  const served = current.models.find((model) =>
    model.endpoints.some((endpoint) => endpoint.providerId === providerId && endpoint.upstreamModel === name),
  );
  if (served) return served.id;
  const candidate = (
    author
      ? `${author}/${name}`
      : name.includes("/") && !name.startsWith("accounts/")
        ? name
        : `${providerId}/${name.slice(name.lastIndexOf("/") + 1)}`
  ).toLowerCase();
  const aliased = current.models.find((model) => model.aliases.includes(candidate));
  return aliased?.id ?? candidate;
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
  if (entry.supports_response_schema === true) list.push("response_format", "structured_outputs");
  if (entry.supports_reasoning === true) list.push("reasoning", "include_reasoning");
  return list;
}
