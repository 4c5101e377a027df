import type { ListPrice } from "../pricing.js";
import { listPrice } from "../pricing.js";
import type { Model } from "../types.js";
import { endpoint } from "./build.js";

/** One cloud endpoint of a model the catalogue already has (its first-party provider's or the sample's). */
export interface CloudEndpoint {
  readonly modelId: string;
  readonly providerId: string;
  readonly upstream: string;
  readonly context: number;
  readonly output: number;
  readonly price: ListPrice;
  /** The cloud's own data policy where it publishes one (Bedrock's); else not claimed (build.ts). */
  readonly isZdr?: boolean;
  /** Where the cloud's API takes other parameters than the model's first endpoint (Bedrock's Converse). */
  readonly supportedParameters?: readonly string[];
}

/**
 * Adds each cloud endpoint to its model. The cloud speaks the model's own dialect (Claude's Messages on
 * Vertex, OpenAI's chat on Azure, Gemini's generateContent on Vertex), so the endpoint takes the model's
 * first endpoint's supported parameters. A cloud endpoint for a model the catalogue lacks is a mistake in
 * the data, not something to add silently: it throws, and the seed test fails.
 */
export function withCloudEndpoints(models: readonly Model[], cloud: readonly CloudEndpoint[]): Model[] {
  const byId = new Map(models.map((m) => [m.id, m]));
  for (const entry of cloud) {
    const target = byId.get(entry.modelId);
    if (!target) throw new Error(`cloud endpoint for a model the catalogue lacks: ${entry.modelId}`);
    const added = endpoint({
      providerId: entry.providerId,
      upstreamModel: entry.upstream,
      contextLength: entry.context,
      maxCompletionTokens: entry.output,
      pricing: listPrice(entry.price),
      supportedParameters: entry.supportedParameters ?? target.endpoints[0]?.supportedParameters ?? [],
      // The same model reads the same media wherever it runs.
      inputModalities: target.endpoints[0]?.inputModalities ?? ["text"],
      ...(entry.isZdr === undefined ? {} : { isZdr: entry.isZdr }),
    });
    const endpoints = [...target.endpoints, added];
    byId.set(entry.modelId, {
      ...target,
      endpoints,
      contextLength: Math.max(target.contextLength, entry.context),
    });
  }
  return models.map((m) => byId.get(m.id) ?? m);
}
