import { readFileSync } from "node:fs";
import { perMillionToPicoPerToken } from "@gw/money";
import { describe, expect, it } from "vitest";
import { BEDROCK_ENDPOINTS } from "./bedrock.js";
import { MODELS } from "./index.js";

// The entries of LiteLLM's full price file of 2026-07-24 (shared/reference/catalog, beside the repository,
// not in it) that the bundled Bedrock endpoints name, copied field for field so the test runs in any clone.
const PRICE_FILE = new URL("./bedrock-litellm-entries.json", import.meta.url);

describe("the bundled Bedrock endpoints", () => {
  const bedrock = MODELS.flatMap((model) =>
    model.endpoints.filter((e) => e.providerId === "amazon-bedrock").map((endpoint) => ({ model, endpoint })),
  );

  it("adds one to every listed Claude model, beside its Anthropic endpoint", () => {
    expect(bedrock.map((entry) => entry.model.id).sort()).toEqual(
      BEDROCK_ENDPOINTS.map((entry) => entry.modelId).sort(),
    );
    for (const { model } of bedrock)
      expect(
        model.endpoints.map((e) => e.providerId),
        model.id,
      ).toContain("anthropic");
  });

  it("is zero-data-retention, never trains on prompts, publishes no quantization, prices the cache", () => {
    for (const { model, endpoint } of bedrock) {
      expect(endpoint.isZdr, model.id).toBe(true);
      expect(endpoint.mayTrainOnData, model.id).toBe(false);
      expect(endpoint.quantization, model.id).toBeNull();
      expect(endpoint.pricing.cacheReadPico, model.id).toBeGreaterThan(0n);
      expect(endpoint.pricing.cacheWritePico, model.id).toBeGreaterThan(0n);
    }
  });

  it("takes output caps and prices from LiteLLM's file of 2026-07-24", () => {
    const file = JSON.parse(readFileSync(PRICE_FILE, "utf8")) as Record<string, Record<string, number>>;
    for (const { model, endpoint } of bedrock) {
      const entry = file[endpoint.upstreamModel];
      expect(entry, endpoint.upstreamModel).toBeDefined();
      expect(endpoint.maxCompletionTokens, model.id).toBe(entry?.max_output_tokens);
      const perToken = (value: number | undefined) =>
        perMillionToPicoPerToken(String(Number(((value ?? 0) * 1e6).toPrecision(12))));
      expect(endpoint.pricing.promptPico, model.id).toBe(perToken(entry?.input_cost_per_token));
      expect(endpoint.pricing.completionPico, model.id).toBe(perToken(entry?.output_cost_per_token));
      expect(endpoint.pricing.cacheReadPico, model.id).toBe(perToken(entry?.cache_read_input_token_cost));
      expect(endpoint.pricing.cacheWritePico, model.id).toBe(
        perToken(entry?.cache_creation_input_token_cost),
      );
    }
  });
});
