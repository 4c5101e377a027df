import { readFileSync } from "node:fs";
import { perMillionToPicoPerToken } from "@gw/money";
import { describe, expect, it } from "vitest";
import { BEDROCK_ENDPOINTS } from "./bedrock.js";
import { BEDROCK_CONVERSE_ENDPOINTS } from "./bedrock-converse.js";
import { MODELS } from "./index.js";

// The entries of LiteLLM's full price file of 2026-07-24 (shared/reference/catalog, beside the repository,
// not in it) that the bundled Bedrock endpoints name, copied field for field so the test runs in any clone.
const PRICE_FILE = new URL("./bedrock-litellm-entries.json", import.meta.url);

describe("the bundled Bedrock endpoints", () => {
  const bedrock = MODELS.flatMap((model) =>
    model.endpoints.filter((e) => e.providerId === "amazon-bedrock").map((endpoint) => ({ model, endpoint })),
  );

  const claude = bedrock.filter(({ model }) => model.id.startsWith("anthropic/"));
  const converse = bedrock.filter(({ model }) => !model.id.startsWith("anthropic/"));

  it("adds one to every listed Claude model, beside its Anthropic endpoint, and to the listed open-weight models", () => {
    expect(claude.map((entry) => entry.model.id).sort()).toEqual(
      BEDROCK_ENDPOINTS.map((entry) => entry.modelId).sort(),
    );
    expect(converse.map((entry) => entry.model.id).sort()).toEqual(
      BEDROCK_CONVERSE_ENDPOINTS.map((entry) => entry.modelId).sort(),
    );
    // Each open-weight model has at least one other host: Bedrock is one more route, not its only one.
    for (const { model } of converse) expect(model.endpoints.length, model.id).toBeGreaterThan(1);
    for (const { model } of claude)
      expect(
        model.endpoints.map((e) => e.providerId),
        model.id,
      ).toContain("anthropic");
  });

  it("is zero-data-retention, never trains on prompts, publishes no quantization, prices Claude's cache", () => {
    for (const { model, endpoint } of bedrock) {
      expect(endpoint.isZdr, model.id).toBe(true);
      expect(endpoint.mayTrainOnData, model.id).toBe(false);
      expect(endpoint.quantization, model.id).toBeNull();
    }
    for (const { model, endpoint } of claude) {
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

  it("gives the Converse endpoints the file's context, and tool_choice only where the model takes it", () => {
    const file = JSON.parse(readFileSync(PRICE_FILE, "utf8")) as Record<string, Record<string, unknown>>;
    for (const { model, endpoint } of converse) {
      const entry = file[endpoint.upstreamModel];
      expect(entry?.litellm_provider, endpoint.upstreamModel).toBe("bedrock_converse");
      expect(endpoint.contextLength, model.id).toBe(entry?.max_input_tokens);
      expect(endpoint.supportedParameters.includes("tool_choice"), model.id).toBe(
        entry?.supports_tool_choice,
      );
      // What Converse cannot carry (translate/bedrock/converse-request.ts refuses them) is not offered.
      for (const refused of ["top_k", "reasoning", "response_format", "seed"])
        expect(endpoint.supportedParameters, model.id).not.toContain(refused);
    }
  });
});
