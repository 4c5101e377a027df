import type { CloudEndpoint } from "./cloud.js";

// Source: LiteLLM's price file of 2026-07-24 (shared/reference/catalog/litellm-model-prices-full-2026-07-24.json),
// keys `azure/<model>`: context, output cap and USD per MTok with the cached-input price (Azure lists no
// cache-write charge). The upstream name is the deployment: by default a deployment named after the model
// (Azure's portal default); AZURE_OPENAI_DEPLOYMENTS or a catalogue override (`upstream_model`) names the
// operator's own deployment.
//
// Data governance (learn.microsoft.com/azure/ai-foundry/responsible-ai/openai/data-privacy, "Data, privacy,
// and security for Azure OpenAI"): prompts and completions are not used to train models (mayTrainOnData
// false), but abuse monitoring may store prompts for up to 30 days unless the customer is approved for
// modified abuse monitoring, so the seed claims ZDR for none. An approved operator declares it: an
// AZURE_OPENAI_DEPLOYMENTS entry with `"zero_data_retention": true`, or the catalogue's data-policy route
// (docs/catalog.md, "Zero data retention on the clouds"). Microsoft publishes no quantization (null).

export const AZURE_ENDPOINTS: readonly CloudEndpoint[] = [
  azure("openai/gpt-4.1", 1_047_576, 32_768, { prompt: "2", completion: "8", cacheRead: "0.50" }),
  azure("openai/gpt-4.1-mini", 1_047_576, 32_768, { prompt: "0.40", completion: "1.60", cacheRead: "0.10" }),
  azure("openai/gpt-4.1-nano", 1_047_576, 32_768, { prompt: "0.10", completion: "0.40", cacheRead: "0.025" }),
  azure("openai/gpt-4o", 128_000, 16_384, { prompt: "2.50", completion: "10", cacheRead: "1.25" }),
  azure("openai/gpt-4o-mini", 128_000, 16_384, { prompt: "0.165", completion: "0.66", cacheRead: "0.075" }),
  reasoning("openai/o1", { prompt: "15", completion: "60", cacheRead: "7.50" }),
  reasoning("openai/o3", { prompt: "2", completion: "8", cacheRead: "0.50" }),
  reasoning("openai/o3-mini", { prompt: "1.10", completion: "4.40", cacheRead: "0.55" }),
  reasoning("openai/o4-mini", { prompt: "1.10", completion: "4.40", cacheRead: "0.275" }),
];

function azure(
  modelId: string,
  context: number,
  output: number,
  price: CloudEndpoint["price"],
): CloudEndpoint {
  const upstream = modelId.slice(modelId.indexOf("/") + 1);
  return { modelId, providerId: "azure", upstream, context, output, price };
}

/** The o-series bill reasoning tokens as output. */
function reasoning(modelId: string, price: CloudEndpoint["price"]): CloudEndpoint {
  return azure(modelId, 200_000, 100_000, { ...price, reasoning: price.completion ?? "0" });
}
