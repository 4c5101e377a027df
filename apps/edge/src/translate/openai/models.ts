import { picoToUsdNumber } from "@gw/money";
import { byPrice } from "../../catalog/price.js";
import type { CatalogSnapshot, Endpoint, Model } from "../../catalog/snapshot.js";

export interface ModelEntry {
  id: string;
  object: "model";
  created: number;
  owned_by: string;
  name: string;
  context_length: number;
  pricing: { prompt: number; completion: number; request: number; image: number };
  supported_parameters: string[];
}

export interface ModelListScope {
  allowedModels: readonly string[] | undefined;
  allowedProviders: readonly string[] | undefined;
  /** Whether this gateway can reach the provider at all. */
  configured: (providerId: string) => boolean;
}

/**
 * OpenAI's model list, restricted to what the calling key can actually use: the model is in its
 * allow-list and at least one endpoint's provider is allowed and configured. Prices are those of the
 * cheapest such endpoint, in USD per token.
 */
export function listModels(
  snapshot: CatalogSnapshot,
  scope: ModelListScope,
): { object: "list"; data: ModelEntry[] } {
  const data = snapshot.allModels().flatMap((model) => visibleModel(model, scope) ?? []);
  data.sort((a, b) => a.id.localeCompare(b.id));
  return { object: "list", data };
}

/** One model's entry, or undefined when the key cannot use it (it is then "not found" for that key). */
export function visibleModel(model: Model, scope: ModelListScope): ModelEntry | undefined {
  if (scope.allowedModels && !scope.allowedModels.includes(model.id)) return undefined;
  const endpoints = model.endpoints.filter(
    (endpoint) =>
      (!scope.allowedProviders || scope.allowedProviders.includes(endpoint.providerId)) &&
      scope.configured(endpoint.providerId),
  );
  const cheapest = byPrice(endpoints)[0];
  return cheapest ? modelEntry(model, endpoints, cheapest) : undefined;
}

function modelEntry(model: Model, endpoints: readonly Endpoint[], cheapest: Endpoint): ModelEntry {
  const pricing = cheapest.pricing;
  return {
    id: model.id,
    object: "model",
    created: Number(model.createdUnix),
    owned_by: model.author,
    name: model.name,
    context_length: model.contextLength,
    pricing: {
      prompt: picoToUsdNumber(pricing?.promptPico ?? 0n),
      completion: picoToUsdNumber(pricing?.completionPico ?? 0n),
      request: picoToUsdNumber(pricing?.requestPico ?? 0n),
      image: picoToUsdNumber(pricing?.imagePico ?? 0n),
    },
    supported_parameters: [...new Set(endpoints.flatMap((endpoint) => endpoint.supportedParameters))].sort(),
  };
}
