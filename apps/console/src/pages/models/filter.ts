/** The part of a catalogue model the Models page filters on (OpenRouter's model object). */
export interface FilterableModel {
  id: string;
  name: string;
  description?: string;
  supported_parameters: string[];
  architecture: { input_modalities: string[]; output_modalities: string[] };
  context_length: number;
  pricing: { prompt: string };
}

export interface ModelFilter {
  /** Words that must all appear in the id, name or description (case-insensitive). */
  search: string;
  /** "" = any. */
  parameter: string;
  /** An input or output modality ("image", "audio", …); "" = any. */
  modality: string;
  /** The highest prompt price, USD per 1M tokens, as one of MAX_PROMPT_PRICES' values; "" = any. */
  maxPrompt: string;
  /** The smallest context, in tokens, as one of MIN_CONTEXTS' values; "" = any. */
  minContext: string;
}

export const NO_MODEL_FILTER: ModelFilter = {
  search: "",
  parameter: "",
  modality: "",
  maxPrompt: "",
  minContext: "",
};

/** The prompt-price ceilings the Models page offers (`?max_prompt=`, USD per 1M tokens). */
export const MAX_PROMPT_PRICES = [
  { value: "", label: "Any" },
  { value: "0", label: "Free" },
  { value: "0.5", label: "Up to $0.50 / 1M" },
  { value: "2", label: "Up to $2 / 1M" },
  { value: "10", label: "Up to $10 / 1M" },
] as const;

/** The context floors the Models page offers (`?min_context=`, tokens). */
export const MIN_CONTEXTS = [
  { value: "", label: "Any" },
  { value: "32000", label: "32K or more" },
  { value: "128000", label: "128K or more" },
  { value: "1000000", label: "1M or more" },
] as const;

export function filterModels<M extends FilterableModel>(models: readonly M[], filter: ModelFilter): M[] {
  const words = filter.search.toLowerCase().split(/\s+/).filter(Boolean);
  return models.filter((model) => {
    const haystack = `${model.id} ${model.name} ${model.description ?? ""}`.toLowerCase();
    if (!words.every((word) => haystack.includes(word))) return false;
    if (filter.parameter && !model.supported_parameters.includes(filter.parameter)) return false;
    if (filter.modality && !modalitiesOf(model).has(filter.modality)) return false;
    if (filter.minContext && model.context_length < Number(filter.minContext)) return false;
    if (filter.maxPrompt && !withinPrice(model.pricing.prompt, Number(filter.maxPrompt))) return false;
    return true;
  });
}

/** A USD-per-token price at or under a USD-per-1M ceiling; a variable price ("-1") is under none. */
function withinPrice(perToken: string, maxPerMillion: number): boolean {
  const price = Number(perToken);
  // Compared per token times 10^6 with a margin for float rounding (0.5 / 1M = 5e-7 exactly as typed).
  return Number.isFinite(price) && price >= 0 && price * 1e6 <= maxPerMillion + 1e-9;
}

function modalitiesOf(model: FilterableModel): Set<string> {
  return new Set([...model.architecture.input_modalities, ...model.architecture.output_modalities]);
}

/** The options of the filter selects: every parameter and modality some model has, sorted. */
export function filterOptions(models: readonly FilterableModel[]): {
  parameters: string[];
  modalities: string[];
} {
  const parameters = new Set<string>();
  const modalities = new Set<string>();
  for (const model of models) {
    for (const parameter of model.supported_parameters) parameters.add(parameter);
    for (const modality of modalitiesOf(model)) modalities.add(modality);
  }
  return { parameters: [...parameters].sort(), modalities: [...modalities].sort() };
}

/** The orders the Models page offers (`?sort=`); "" keeps the catalogue's own order. */
export const MODEL_SORTS = [
  { value: "", label: "Catalogue order" },
  { value: "prompt", label: "Prompt price, lowest first" },
  { value: "completion", label: "Completion price, lowest first" },
  { value: "context", label: "Context, largest first" },
  { value: "name", label: "Name, A–Z" },
] as const;

/** The part of a model the sorts read: prices are USD-per-token decimal strings, as the API sends them. */
export interface SortableModel {
  name: string;
  context_length: number;
  pricing: { prompt: string; completion: string };
}

/**
 * The models in the chosen order (a copy; ties keep the catalogue's order). A price that is not a
 * number (e.g. "-1" for a variable price) sorts last.
 */
export function sortModels<M extends SortableModel>(models: readonly M[], sort: string): M[] {
  const price = (value: string) => {
    const number = Number(value);
    return Number.isFinite(number) && number >= 0 ? number : Number.POSITIVE_INFINITY;
  };
  const compare: ((a: M, b: M) => number) | undefined =
    sort === "prompt"
      ? (a, b) => price(a.pricing.prompt) - price(b.pricing.prompt)
      : sort === "completion"
        ? (a, b) => price(a.pricing.completion) - price(b.pricing.completion)
        : sort === "context"
          ? (a, b) => b.context_length - a.context_length
          : sort === "name"
            ? (a, b) => a.name.localeCompare(b.name)
            : undefined;
  return compare ? [...models].sort(compare) : [...models];
}
