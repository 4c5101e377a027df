import { listPrice } from "@gw/catalog";
import type { Endpoint, GetSnapshotResponse, Model } from "@gw/proto/catalog/v1/catalog";
import { CatalogSnapshot } from "../catalog/snapshot.js";

/** Test catalogue builders in the proto shapes the edge receives over gRPC. */
export function testEndpoint(
  providerId: string,
  overrides: Partial<Endpoint> & { prompt?: string; completion?: string } = {},
): Endpoint {
  const { prompt = "1", completion = "2", ...rest } = overrides;
  return {
    providerId,
    upstreamModel: `${providerId}-model`,
    contextLength: 8_000,
    maxCompletionTokens: 1_000,
    pricing: { ...listPrice({ prompt, completion }) },
    quantization: "",
    isZdr: false,
    supportedParameters: ["max_tokens", "temperature", "stream"],
    mayTrainOnData: false,
    // None listed: read as a keys app older than the field sends it (text, and images where priced).
    inputModalities: [],
    ...rest,
  };
}

export function testModel(id: string, endpoints: Endpoint[], overrides: Partial<Model> = {}): Model {
  return {
    id,
    name: id,
    author: id.split("/")[0] ?? id,
    kind: "chat",
    createdUnix: 1_700_000_000n,
    contextLength: Math.max(0, ...endpoints.map((endpoint) => endpoint.contextLength)),
    isFree: id.endsWith(":free"),
    endpoints,
    modelLimit: undefined,
    aliases: [],
    ...overrides,
  };
}

export function testSnapshotResponse(models: Model[], version = "v1"): GetSnapshotResponse {
  const providerIds = [
    ...new Set(models.flatMap((model) => model.endpoints.map((endpoint) => endpoint.providerId))),
  ];
  return {
    version,
    notModified: false,
    providers: providerIds.map((id) => ({ id, name: id, apiFormat: "openai", isDemo: id === "demo" })),
    models,
  };
}

export function testSnapshot(models: Model[], version = "v1"): CatalogSnapshot {
  return new CatalogSnapshot(testSnapshotResponse(models, version));
}
