/** The part of a catalogue model the Models page filters on (OpenRouter's model object). */
export interface FilterableModel {
  id: string;
  name: string;
  description?: string;
  supported_parameters: string[];
  architecture: { input_modalities: string[]; output_modalities: string[] };
}

export interface ModelFilter {
  /** Words that must all appear in the id, name or description (case-insensitive). */
  search: string;
  /** "" = any. */
  parameter: string;
  /** An input or output modality ("image", "audio", …); "" = any. */
  modality: string;
}

export const NO_MODEL_FILTER: ModelFilter = { search: "", parameter: "", modality: "" };

export function filterModels<M extends FilterableModel>(models: readonly M[], filter: ModelFilter): M[] {
  const words = filter.search.toLowerCase().split(/\s+/).filter(Boolean);
  return models.filter((model) => {
    const haystack = `${model.id} ${model.name} ${model.description ?? ""}`.toLowerCase();
    if (!words.every((word) => haystack.includes(word))) return false;
    if (filter.parameter && !model.supported_parameters.includes(filter.parameter)) return false;
    if (filter.modality && !modalitiesOf(model).has(filter.modality)) return false;
    return true;
  });
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
