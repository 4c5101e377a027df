import { describe, expect, it } from "vitest";
import { findModel } from "../catalog.js";
import { withCloudEndpoints } from "./cloud.js";

const endpointOf = (model: string, provider: string) =>
  findModel(model)?.endpoints.find((endpoint) => endpoint.providerId === provider);

describe("cloud endpoints in the seed (Vertex AI, Azure OpenAI)", () => {
  it("serves current Claude and Gemini 2.5 on Vertex, with the file's prices and Vertex's model names", () => {
    expect(endpointOf("anthropic/claude-sonnet-4-5", "google-vertex")).toMatchObject({
      upstreamModel: "claude-sonnet-4-5@20250929",
      contextLength: 200_000,
      maxCompletionTokens: 64_000,
      pricing: {
        promptPico: 3_000_000n,
        completionPico: 15_000_000n,
        cacheReadPico: 300_000n,
        cacheWritePico: 3_750_000n,
      },
      isZdr: false,
      mayTrainOnData: false,
      quantization: null,
    });
    expect(endpointOf("google/gemini-2.5-flash-lite", "google-vertex")?.pricing.cacheReadPico).toBe(10_000n);
    for (const model of [
      "anthropic/claude-sonnet-4",
      "anthropic/claude-opus-4-1",
      "anthropic/claude-haiku-4-5",
      "google/gemini-2.5-pro",
    ])
      expect(endpointOf(model, "google-vertex"), model).toBeDefined();
  });

  it("serves GPT-4.1, 4o and the o-series on Azure, each with the model's own supported parameters", () => {
    for (const model of [
      "openai/gpt-4.1",
      "openai/gpt-4.1-mini",
      "openai/gpt-4o",
      "openai/o3",
      "openai/o4-mini",
    ]) {
      const azure = endpointOf(model, "azure");
      expect(azure, model).toBeDefined();
      expect(azure?.supportedParameters).toEqual(findModel(model)?.endpoints[0]?.supportedParameters);
    }
    expect(endpointOf("openai/o3", "azure")).toMatchObject({
      upstreamModel: "o3",
      maxCompletionTokens: 100_000,
    });
  });

  it("refuses an endpoint for a model the catalogue lacks instead of adding it silently", () => {
    const price = { prompt: "1" };
    expect(() =>
      withCloudEndpoints(
        [],
        [{ modelId: "x/none", providerId: "azure", upstream: "none", context: 1, output: 1, price }],
      ),
    ).toThrow(/x\/none/);
  });
});
