import { listPrice } from "@gw/catalog";
import { describe, expect, it } from "vitest";
import type { ProviderPreferences } from "../canonical/chat-request.js";
import { testEndpoint } from "../test/catalog.js";
import { type Availability, type EndpointFilterContext, endpointRejection } from "./filters.js";

// Which endpoints a request may be sent to: the key's allow-list, the request's provider preferences
// and what this edge can reach, each with the code the caller sees when nothing is left.

const usable: Availability = { usable: true };

function context(overrides: Partial<EndpointFilterContext> = {}): EndpointFilterContext {
  return {
    preferences: undefined,
    allowedProviders: undefined,
    requestedParameters: [],
    availability: () => usable,
    ...overrides,
  };
}

const rejection = (preferences: ProviderPreferences, endpoint = testEndpoint("openai")) =>
  endpointRejection(endpoint, context({ preferences }));

describe("endpointRejection", () => {
  it("lets an endpoint through when nothing rules it out", () => {
    expect(endpointRejection(testEndpoint("openai"), context())).toBeUndefined();
    expect(
      rejection({ only: ["openai"], ignore: ["azure"], zdr: false, require_parameters: true }),
    ).toBeUndefined();
  });

  it("applies the key's provider allow-list before anything the request asks", () => {
    const result = endpointRejection(
      testEndpoint("anthropic"),
      context({ allowedProviders: ["openai"], preferences: { only: ["anthropic"] } }),
    );
    expect(result).toEqual({
      code: "provider_not_allowed",
      reason: "this key may not use provider anthropic",
    });
    expect(
      endpointRejection(testEndpoint("openai"), context({ allowedProviders: ["openai"] })),
    ).toBeUndefined();
  });

  it("honours provider.only and provider.ignore", () => {
    expect(rejection({ only: ["azure"] })).toEqual({
      code: "excluded_by_request",
      reason: "not listed in provider.only",
    });
    expect(rejection({ ignore: ["openai"] })).toEqual({
      code: "excluded_by_request",
      reason: "listed in provider.ignore",
    });
  });

  it("reports why this edge cannot reach the provider", () => {
    const down: Availability = { usable: false, code: "provider_not_configured", reason: "no credentials" };
    expect(endpointRejection(testEndpoint("openai"), context({ availability: () => down }))).toEqual({
      code: "provider_not_configured",
      reason: "no credentials",
    });
  });

  it("matches the requested quantizations and zero data retention", () => {
    const fp8 = testEndpoint("openai", { quantization: "fp8" });
    expect(rejection({ quantizations: ["fp8"] }, fp8)).toBeUndefined();
    expect(rejection({ quantizations: ["bf16"] }, fp8)).toEqual({
      code: "quantization_mismatch",
      reason: "quantization fp8",
    });
    expect(rejection({ quantizations: ["bf16"] })).toEqual({
      code: "quantization_mismatch",
      reason: "quantization unknown",
    });
    expect(rejection({ zdr: true })).toEqual({
      code: "not_zdr",
      reason: "does not offer zero data retention",
    });
    expect(rejection({ zdr: true }, testEndpoint("openai", { isZdr: true }))).toBeUndefined();
  });

  it("data_collection deny excludes endpoints whose provider may train on prompts", () => {
    const trains = testEndpoint("openai", { mayTrainOnData: true });
    expect(rejection({ data_collection: "deny" }, trains)).toEqual({
      code: "data_collection_denied",
      reason: "the provider may train on prompts (data_collection: deny)",
    });
    expect(rejection({ data_collection: "allow" }, trains)).toBeUndefined();
    expect(rejection({ data_collection: "deny" })).toBeUndefined();
  });

  it("compares max_price exactly: equal passes, one pico above is refused", () => {
    // 1 USD / M prompt tokens, 2 USD / M completion tokens, 0.01 USD per request.
    const endpoint = testEndpoint("openai", {
      pricing: listPrice({ prompt: "1", completion: "2", request: "0.01" }),
    });
    const above = { code: "above_max_price", reason: "price above provider.max_price" };
    expect(rejection({ max_price: { prompt: 1, completion: 2, request: 0.01 } }, endpoint)).toBeUndefined();
    expect(rejection({ max_price: { prompt: 0.999999 } }, endpoint)).toEqual(above);
    expect(rejection({ max_price: { completion: 1.999999 } }, endpoint)).toEqual(above);
    expect(rejection({ max_price: { request: 0.009 } }, endpoint)).toEqual(above);
    expect(
      rejection({ max_price: { prompt: 5 } }, testEndpoint("openai", { pricing: undefined })),
    ).toBeUndefined();
  });

  it("with require_parameters, refuses endpoints missing a requested parameter, naming them", () => {
    const endpoint = testEndpoint("openai", { supportedParameters: ["max_tokens"] });
    const filter = (requestedParameters: string[], preferences: ProviderPreferences) =>
      endpointRejection(endpoint, context({ preferences, requestedParameters }));
    expect(filter(["max_tokens", "tools", "seed"], { require_parameters: true })).toEqual({
      code: "missing_parameters",
      reason: "does not support tools, seed",
    });
    expect(filter(["max_tokens"], { require_parameters: true })).toBeUndefined();
    expect(filter(["tools"], {})).toBeUndefined();
  });

  it("leaves out an endpoint whose context cannot hold the prompt plus the answer, or whose cap is below max_tokens", () => {
    // The case: a ~70k-token prompt to a 64k-context endpoint.
    const small = testEndpoint("groq", { contextLength: 64_000, maxCompletionTokens: 8_000 });
    const large = testEndpoint("together", { contextLength: 128_000, maxCompletionTokens: 8_000 });
    const room = (promptTokens: number, maxTokens?: number) => context({ room: { promptTokens, maxTokens } });
    expect(endpointRejection(small, room(70_000))).toEqual({
      code: "context_length",
      reason: "about 70000 prompt tokens plus 1024 of output exceed its context of 64000",
    });
    expect(endpointRejection(large, room(70_000))).toBeUndefined();
    // The requested output counts, not the default; the default answer must fit too.
    expect(endpointRejection(small, room(60_000, 3_000))).toBeUndefined();
    expect(endpointRejection(small, room(60_000, 5_000))?.code).toBe("context_length");
    expect(endpointRejection(small, room(63_000))?.code).toBe("context_length");
    // Above the output cap but within the context: kept (the request is sent with the cap).
    expect(endpointRejection(small, room(10, 9_000))).toBeUndefined();
    // No room given (token counting, embeddings): not checked.
    expect(endpointRejection(small, context())).toBeUndefined();
  });
});
