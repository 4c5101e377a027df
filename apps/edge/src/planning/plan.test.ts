import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { testEndpoint, testModel, testSnapshot } from "../test/catalog.js";
import type { Availability } from "./filters.js";
import { type PlanInput, planRoute } from "./plan.js";

const snapshot = testSnapshot([
  testModel("openai/gpt", [
    testEndpoint("openai", { prompt: "2", completion: "8" }),
    testEndpoint("azure", { prompt: "1", completion: "4" }),
    testEndpoint("anthropic", { prompt: "1", completion: "1" }),
  ]),
  testModel("meta/llama", [
    testEndpoint("groq", { prompt: "0.5", completion: "0.5" }),
    testEndpoint("together", { prompt: "1", completion: "1" }),
  ]),
  testModel("demo/echo", [testEndpoint("demo")]),
  testModel("demo/embed", [testEndpoint("demo")], { kind: "embedding" }),
  testModel("meta/llama:free", [testEndpoint("groq", { prompt: "0", completion: "0" })]),
]);

const configured = new Set(["openai", "azure", "groq", "together", "demo"]);
const availability = (providerId: string): Availability => {
  if (providerId === "anthropic")
    return { usable: false, code: "surface_not_supported", reason: "not supported on this surface yet" };
  if (!configured.has(providerId))
    return { usable: false, code: "provider_not_configured", reason: "no credentials" };
  return { usable: true };
};

function plan(overrides: Partial<PlanInput>) {
  const result = planRoute({
    snapshot,
    kind: "chat",
    model: "openai/gpt",
    fallbacks: [],
    preferences: undefined,
    requestedParameters: [],
    allowedModels: undefined,
    allowedProviders: undefined,
    availability,
    random: () => 0.5,
    ...overrides,
  });
  return {
    ...result,
    route: result.attempts.map((attempt) => `${attempt.model.id}@${attempt.endpoint.providerId}`),
  };
}

function planError(overrides: Partial<PlanInput>): GatewayError {
  try {
    plan(overrides);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error("expected the plan to fail");
}

describe("planRoute", () => {
  it("tries the requested model's usable endpoints, then each fallback model in order", () => {
    const { route, excluded } = plan({ fallbacks: ["meta/llama", "demo/echo"] });
    expect(route).toEqual([
      "openai/gpt@azure",
      "openai/gpt@openai",
      "meta/llama@groq",
      "meta/llama@together",
      "demo/echo@demo",
    ]);
    expect(excluded).toEqual([
      {
        model: "openai/gpt",
        provider: "anthropic",
        code: "surface_not_supported",
        reason: "not supported on this surface yet",
      },
    ]);
  });

  it("draws the first endpoint with weight ∝ 1/price², the rest by price", () => {
    // openai costs 10 per token pair, azure 5: weights 1/100 and 1/25, so openai (listed first) wins 20 % of draws.
    expect(plan({ random: () => 0.19 }).route).toEqual(["openai/gpt@openai", "openai/gpt@azure"]);
    expect(plan({ random: () => 0.21 }).route).toEqual(["openai/gpt@azure", "openai/gpt@openai"]);
  });

  it("puts recently failing providers last", () => {
    const health = { degraded: (_model: string, id: string) => id === "azure", figures: () => undefined };
    expect(plan({ health }).route).toEqual(["openai/gpt@openai", "openai/gpt@azure"]);
  });

  it("honours provider.order, only, ignore and allow_fallbacks", () => {
    expect(plan({ preferences: { order: ["openai"] } }).route).toEqual([
      "openai/gpt@openai",
      "openai/gpt@azure",
    ]);
    expect(plan({ preferences: { order: ["openai"], allow_fallbacks: false } }).route).toEqual([
      "openai/gpt@openai",
    ]);
    expect(plan({ preferences: { only: ["openai"] } }).route).toEqual(["openai/gpt@openai"]);
    expect(plan({ preferences: { ignore: ["azure"] } }).route).toEqual(["openai/gpt@openai"]);
    expect(plan({ preferences: { allow_fallbacks: false }, random: () => 0.1 }).route).toEqual([
      "openai/gpt@openai",
    ]);
  });

  it("sorts by price for provider.sort=price and the :floor variant", () => {
    expect(plan({ preferences: { sort: "price" }, random: () => 0 }).route).toEqual([
      "openai/gpt@azure",
      "openai/gpt@openai",
    ]);
    expect(plan({ model: "openai/gpt:floor", random: () => 0 }).route).toEqual([
      "openai/gpt@azure",
      "openai/gpt@openai",
    ]);
  });

  it("treats :free as a model of its own", () => {
    expect(plan({ model: "meta/llama:free" }).route).toEqual(["meta/llama:free@groq"]);
  });

  it("filters by max_price and require_parameters", () => {
    expect(plan({ preferences: { max_price: { prompt: 1.5 } } }).route).toEqual(["openai/gpt@azure"]);
    const { excluded } = plan({ preferences: { max_price: { prompt: 1.5 } } });
    expect(excluded).toContainEqual({
      model: "openai/gpt",
      provider: "openai",
      code: "above_max_price",
      reason: "price above provider.max_price",
    });
    expect(
      planError({ requestedParameters: ["tools"], preferences: { require_parameters: true } }).code,
    ).toBe("no_available_provider");
  });

  it("applies the key's allow-lists before anything else", () => {
    expect(plan({ allowedProviders: ["openai", "groq"], fallbacks: ["meta/llama"] }).route).toEqual([
      "openai/gpt@openai",
      "meta/llama@groq",
    ]);
    const forbidden = planError({ allowedModels: ["meta/llama"] });
    expect(forbidden.status).toBe(403);
    expect(forbidden.code).toBe("model_not_allowed");
    const noProvider = planError({ allowedProviders: ["mistral"] });
    expect(noProvider.status).toBe(403);
    expect(noProvider.code).toBe("provider_not_allowed");
  });

  it("skips fallbacks that are unknown, forbidden or of the wrong kind, and says why", () => {
    const { route, excluded } = plan({
      allowedModels: ["openai/gpt", "demo/embed"],
      fallbacks: ["nope/missing", "meta/llama", "demo/embed", "openai/gpt"],
    });
    expect(route).toEqual(["openai/gpt@azure", "openai/gpt@openai"]);
    expect(excluded.map((exclusion) => `${exclusion.model}:${exclusion.code}`)).toEqual([
      "openai/gpt:surface_not_supported",
      "nope/missing:model_not_found",
      "meta/llama:model_not_allowed",
      "demo/embed:wrong_model_kind",
    ]);
  });

  it("answers 404 for an unknown model and 400 for a model of the wrong kind", () => {
    const missing = planError({ model: "nope/missing" });
    expect([missing.status, missing.type, missing.code]).toEqual([404, "not_found_error", "model_not_found"]);
    const wrongKind = planError({ model: "demo/embed" });
    expect([wrongKind.status, wrongKind.code]).toEqual([400, "wrong_model_kind"]);
  });

  it("answers 503 no_available_provider with every exclusion in metadata when nothing is left", () => {
    const error = planError({ model: "openai/gpt", preferences: { only: ["anthropic"] } });
    expect([error.status, error.type, error.code]).toEqual([
      503,
      "service_unavailable",
      "no_available_provider",
    ]);
    expect(error.metadata?.excluded).toEqual([
      {
        model: "openai/gpt",
        provider: "openai",
        code: "excluded_by_request",
        reason: "not listed in provider.only",
      },
      {
        model: "openai/gpt",
        provider: "azure",
        code: "excluded_by_request",
        reason: "not listed in provider.only",
      },
      {
        model: "openai/gpt",
        provider: "anthropic",
        code: "surface_not_supported",
        reason: "not supported on this surface yet",
      },
    ]);
  });
});

describe("planRoute: why nothing is left, as the caller learns it", () => {
  it("names the requested model in its 404, 403 and 400", () => {
    expect(planError({ model: "nope/missing" }).message).toBe("model nope/missing does not exist");
    expect(planError({ allowedModels: ["meta/llama"] }).message).toBe(
      "this key may not use model openai/gpt",
    );
    expect(planError({ model: "demo/embed" }).message).toMatch(/demo\/embed .*embedding .*chat requests/);
  });

  it("gives each skipped fallback's reason, and tries a repeated model once", () => {
    const { route, excluded } = plan({
      allowedModels: ["openai/gpt", "demo/embed"],
      fallbacks: ["nope/missing", "meta/llama", "demo/embed", "nope/missing"],
    });
    expect(route).toEqual(["openai/gpt@azure", "openai/gpt@openai"]);
    expect(excluded.slice(1)).toEqual([
      { model: "nope/missing", code: "model_not_found", reason: "no such model" },
      { model: "meta/llama", code: "model_not_allowed", reason: "not allowed for this key" },
      {
        model: "demo/embed",
        code: "wrong_model_kind",
        reason: expect.stringMatching(/demo\/embed .*embedding .*chat requests/),
      },
    ]);
  });

  it("says so when the catalogue lists no endpoint for a model", () => {
    const bare = testSnapshot([testModel("x/bare", [])]);
    const error = planError({ snapshot: bare, model: "x/bare" });
    expect(error.code).toBe("no_available_provider");
    expect(error.metadata?.excluded).toEqual([
      { model: "x/bare", code: "provider_not_configured", reason: "the catalogue lists no endpoint" },
    ]);
  });

  it("answers 400 untranslatable_request, with the first reason, when no endpoint's format can carry it", () => {
    const untranslatable = (providerId: string): Availability => ({
      usable: false,
      code: "untranslatable_request",
      reason: `safetySettings: ${providerId} has no place for it`,
    });
    const error = planError({ availability: untranslatable });
    expect([error.status, error.code]).toEqual([400, "untranslatable_request"]);
    expect(error.message).toBe("safetySettings: openai has no place for it");
    expect(error.metadata?.excluded).toHaveLength(3);
  });

  it("answers 503 when some endpoint was left out for the operator's reason, not the request's", () => {
    const mixed = (providerId: string): Availability =>
      providerId === "openai"
        ? { usable: false, code: "provider_not_configured", reason: "no credentials" }
        : { usable: false, code: "untranslatable_request", reason: "no place for it" };
    const error = planError({ availability: mixed });
    expect([error.status, error.code]).toEqual([503, "no_available_provider"]);
  });

  it("answers 403 provider_not_allowed only when the key's allow-list left out every endpoint", () => {
    const forbidden = planError({ allowedProviders: ["mistral"] });
    expect([forbidden.status, forbidden.code]).toEqual([403, "provider_not_allowed"]);
    expect(forbidden.message).toBe("this key may not use any provider that serves this model");
    expect(forbidden.metadata?.excluded).toHaveLength(3);
    // Anthropic is allowed but not served on this surface: that is not the key's doing.
    const partly = planError({ allowedProviders: ["anthropic"] });
    expect([partly.status, partly.code]).toEqual([503, "no_available_provider"]);
  });
});
