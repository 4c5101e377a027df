import { describe, expect, it } from "vitest";
import { bundledCatalog, type CatalogContent } from "./content.js";
import { OPERATOR_MODEL_DEFAULTS, type OperatorPrice, perMillionTokens } from "./operator-prices.js";
import { applyOverlay, emptyOverlay, endpointKey } from "./overlay.js";

const base = bundledCatalog();

const o3: OperatorPrice = {
  modelId: "openai/o9",
  providerId: "openai",
  upstreamModel: "o9",
  promptPico: 2_000_000n,
  completionPico: 8_000_000n,
  requestPico: 0n,
};

/** Operator prices as the overlay keeps them (an endpoint override each), applied to the seed. */
function withOperatorPrices(content: CatalogContent, prices: OperatorPrice[]): CatalogContent {
  const overlay = emptyOverlay();
  for (const price of prices) {
    overlay.endpoints.set(endpointKey(price.modelId, price.providerId), {
      upstreamModel: price.upstreamModel,
      pricing: {
        promptPico: price.promptPico,
        completionPico: price.completionPico,
        requestPico: price.requestPico,
      },
      contextLength: price.contextLength,
      maxCompletionTokens: price.maxCompletionTokens,
    });
  }
  return applyOverlay(content, overlay);
}

describe("operator prices in the overlay", () => {
  it("leaves the content (and its bundled version) as it is without operator prices", () => {
    expect(withOperatorPrices(base, [])).toBe(base);
  });

  it("adds a model the catalogue lacks, with one endpoint at the provider and the defaults", () => {
    expect(base.models.some((model) => model.id === "openai/o9")).toBe(false);
    const merged = withOperatorPrices(base, [o3]);
    expect(merged.version).toBeUndefined();
    expect(merged.models).toHaveLength(base.models.length + 1);
    const model = merged.models.find((candidate) => candidate.id === "openai/o9");
    expect(model).toMatchObject({
      id: "openai/o9",
      name: "openai/o9",
      author: "openai",
      kind: "chat",
      isFree: false,
      contextLength: OPERATOR_MODEL_DEFAULTS.contextLength,
      modelLimit: undefined,
    });
    expect(model?.endpoints).toEqual([
      {
        providerId: "openai",
        upstreamModel: "o9",
        contextLength: 128_000,
        maxCompletionTokens: 16_384,
        pricing: {
          promptPico: 2_000_000n,
          completionPico: 8_000_000n,
          requestPico: 0n,
          imagePico: 0n,
          cacheReadPico: 0n,
          cacheWritePico: 0n,
          reasoningPico: 0n,
          audioPico: 0n,
          audioOutputPico: 0n,
        },
        quantization: "",
        isZdr: false,
        supportedParameters: [],
        mayTrainOnData: false,
        inputModalities: ["text"],
      },
    ]);
  });

  it("takes the operator's context and output bounds for a new model", () => {
    const merged = withOperatorPrices(base, [
      { ...o3, contextLength: 200_000, maxCompletionTokens: 100_000 },
    ]);
    const model = merged.models.find((candidate) => candidate.id === "openai/o9");
    expect(model?.contextLength).toBe(200_000);
    expect(model?.endpoints[0]).toMatchObject({ contextLength: 200_000, maxCompletionTokens: 100_000 });
  });

  it("replaces a listed model's prices at that provider only, keeping the endpoint's other facts", () => {
    const listed = base.models.find((model) => model.endpoints.length > 1);
    if (!listed) throw new Error("the bundled catalogue has a model served by two providers");
    const [first, second] = listed.endpoints;
    if (!first || !second) throw new Error("two endpoints");
    const price = {
      ...o3,
      modelId: listed.id,
      providerId: first.providerId,
      upstreamModel: "renamed-upstream",
    };
    const merged = withOperatorPrices(base, [price]);
    const model = merged.models.find((candidate) => candidate.id === listed.id);
    expect(model?.endpoints).toHaveLength(listed.endpoints.length);
    expect(model?.endpoints[0]).toEqual({
      ...first,
      upstreamModel: "renamed-upstream",
      // Only the prices the operator set change; cache and reasoning prices stay the seed's.
      pricing: { ...first.pricing, ...expectedPricing(price) },
    });
    expect(model?.endpoints[1]).toEqual(second);
    // The input is not changed: the bundled content stays what it was.
    expect(listed.endpoints[0]).toBe(first);
    expect(first.upstreamModel).not.toBe("renamed-upstream");
  });

  it("adds an endpoint at another provider to a listed model", () => {
    const listed = base.models.find(
      (model) => !model.endpoints.some((endpoint) => endpoint.providerId === "groq"),
    );
    if (!listed) throw new Error("a model not served by groq");
    const merged = withOperatorPrices(base, [
      { ...o3, modelId: listed.id, providerId: "groq", upstreamModel: "x" },
    ]);
    const model = merged.models.find((candidate) => candidate.id === listed.id);
    expect(model?.endpoints).toHaveLength(listed.endpoints.length + 1);
    expect(model?.endpoints.at(-1)).toMatchObject({ providerId: "groq", upstreamModel: "x" });
  });

  it("gives different prices different contents (so a new price moves the catalogue version)", () => {
    const one = withOperatorPrices(base, [o3]);
    const two = withOperatorPrices(base, [{ ...o3, completionPico: 9_000_000n }]);
    expect(JSON.stringify(one.models, bigints)).not.toBe(JSON.stringify(two.models, bigints));
  });
});

describe("the overlay over a later seed", () => {
  it("leaves out an operator endpoint at a provider the seed no longer lists (and a model left without one)", () => {
    const merged = withOperatorPrices(base, [{ ...o3, providerId: "gone-provider" }]);
    expect(merged.models.some((model) => model.id === "openai/o9")).toBe(false);
    expect(merged.models).toHaveLength(base.models.length);
  });
});

describe("perMillionTokens", () => {
  it("turns USD per million tokens into pico-dollars per token", () => {
    expect(perMillionTokens("2")).toBe(2_000_000n);
    expect(perMillionTokens("0.15")).toBe(150_000n);
    expect(perMillionTokens("0.000001")).toBe(1n);
    expect(perMillionTokens("0")).toBe(0n);
  });

  it("refuses a price finer than a pico-dollar per token, naming it", () => {
    expect(() => perMillionTokens("0.0000001")).toThrow(
      "not a price per million tokens in whole pico-dollars per token: 0.0000001",
    );
    expect(() => perMillionTokens("-1")).toThrow("-1");
  });
});

function expectedPricing(price: OperatorPrice) {
  return {
    promptPico: price.promptPico,
    completionPico: price.completionPico,
    requestPico: price.requestPico,
  };
}

const bigints = (_key: string, value: unknown) => (typeof value === "bigint" ? value.toString() : value);
