import { modelList, type OpenRouterModel, type OpenRouterModelList, openRouterModel } from "@gw/catalog";
import { byPrice } from "../../catalog/price.js";
import type { CatalogSnapshot, Model } from "../../catalog/snapshot.js";

/** One element of the model lists: OpenRouter's model object (which carries OpenAI's fields too). */
export type ModelEntry = OpenRouterModel;

export interface ModelListScope {
  allowedModels: readonly string[] | undefined;
  allowedProviders: readonly string[] | undefined;
  /** Whether this gateway can reach the provider at all. */
  configured: (providerId: string) => boolean;
}

/**
 * The model list restricted to what the calling key can actually use: the model is in its allow-list
 * and at least one endpoint's provider is allowed and configured. Prices and limits are those of the
 * cheapest such endpoint, in USD per token.
 */
export function listModels(snapshot: CatalogSnapshot, scope: ModelListScope): OpenRouterModelList {
  const data = snapshot.allModels().flatMap((model) => visibleModel(model, scope) ?? []);
  data.sort((a, b) => a.id.localeCompare(b.id));
  return modelList(data);
}

/** One model's entry, or undefined when the key cannot use it (it is then "not found" for that key). */
export function visibleModel(model: Model, scope: ModelListScope): ModelEntry | undefined {
  if (scope.allowedModels && !scope.allowedModels.includes(model.id)) return undefined;
  const endpoints = model.endpoints.filter(
    (endpoint) =>
      (!scope.allowedProviders || scope.allowedProviders.includes(endpoint.providerId)) &&
      scope.configured(endpoint.providerId),
  );
  return endpoints.length > 0 ? openRouterModel(model, byPrice(endpoints)) : undefined;
}
