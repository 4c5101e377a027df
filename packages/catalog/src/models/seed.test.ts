import { describe, expect, it } from "vitest";
import { CATALOG, findModel, resolveModel } from "../catalog.js";
import { validateCatalog } from "../validate.js";

describe("the bundled seed (hand-kept models plus the dated LiteLLM sample)", () => {
  it("is broad: many models across the providers the gateway speaks, and sound", () => {
    expect(CATALOG.models.length).toBeGreaterThanOrEqual(90);
    const providers = new Set(CATALOG.models.flatMap((m) => m.endpoints.map((e) => e.providerId)));
    for (const id of ["openai", "anthropic", "google", "xai", "deepseek", "groq", "together", "fireworks"]) {
      expect(providers, id).toContain(id);
    }
    expect(validateCatalog()).toEqual([]);
  });

  it("resolves provider aliases and dated ids to their model", () => {
    expect(resolveModel("anthropic/claude-3-5-haiku-latest")?.model.id).toBe("anthropic/claude-3-5-haiku");
    expect(resolveModel("anthropic/claude-3-5-haiku-20241022")?.model.id).toBe("anthropic/claude-3-5-haiku");
    expect(resolveModel("anthropic/claude-sonnet-4-20250514")?.model.id).toBe("anthropic/claude-sonnet-4");
    expect(resolveModel("openai/gpt-4o-2024-08-06")?.model.id).toBe("openai/gpt-4o");
    expect(resolveModel("openai/gpt-4.1-2025-04-14")?.model.id).toBe("openai/gpt-4.1");
    expect(findModel("google/gemini-2.5-flash-lite")?.endpoints[0]?.upstreamModel).toBe(
      "gemini-2.5-flash-lite",
    );
  });

  it("keeps the hand-kept prices and takes the sample's list and cache prices for the rest", () => {
    expect(findModel("openai/gpt-4o-mini")?.endpoints[0]?.pricing.promptPico).toBe(150_000n);
    const gpt41 = findModel("openai/gpt-4.1")?.endpoints[0];
    expect(gpt41?.pricing).toMatchObject({
      promptPico: 2_000_000n,
      completionPico: 8_000_000n,
      cacheReadPico: 500_000n,
    });
    expect(gpt41).toMatchObject({ contextLength: 1_047_576, maxCompletionTokens: 32_768 });
    const opus = findModel("anthropic/claude-opus-4-1")?.endpoints[0];
    expect(opus?.pricing).toMatchObject({ cacheReadPico: 1_500_000n, cacheWritePico: 18_750_000n });
    expect(findModel("x-ai/grok-4.3")?.endpoints[0]?.providerId).toBe("xai");
  });

  it("has :free variants priced at zero, with a model-specific request limit and a training data policy", () => {
    const free = CATALOG.models.filter((m) => m.isFree);
    expect(free.length).toBeGreaterThanOrEqual(3);
    for (const m of free)
      for (const e of m.endpoints) expect(Object.values(e.pricing).every((p) => p === 0n)).toBe(true);
    const limited = CATALOG.models.filter((m) => m.modelLimit !== null);
    expect(limited.map((m) => m.id)).toContain("deepseek/deepseek-chat-v3-0324:free");
    expect(findModel("deepseek/deepseek-chat-v3-0324:free")?.modelLimit).toEqual({
      requests: 20,
      intervalSeconds: 60,
    });
    expect(findModel("deepseek/deepseek-chat-v3-0324:free")?.endpoints[0]?.mayTrainOnData).toBe(true);
    expect(findModel("openai/gpt-4o")?.endpoints[0]?.mayTrainOnData).toBe(false);
  });
});
