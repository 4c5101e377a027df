import { describe, expect, it } from "vitest";
import { CATALOG, findModel, resolveModel } from "../catalog.js";
import { validateCatalog } from "../validate.js";

describe("the bundled seed (hand-kept models plus the dated LiteLLM sample)", () => {
  it("is broad: many models across the providers the gateway speaks, and sound", () => {
    expect(CATALOG.models.length).toBeGreaterThanOrEqual(100);
    const providers = new Set(CATALOG.models.flatMap((m) => m.endpoints.map((e) => e.providerId)));
    const hosts = ["groq", "together", "fireworks", "deepinfra", "cerebras", "mistral"];
    for (const id of ["openai", "anthropic", "google", "xai", "deepseek", ...hosts]) {
      expect(providers, id).toContain(id);
    }
    expect(validateCatalog()).toEqual([]);
  });

  it("gives routing a choice: 40 models on two or more providers before any cloud, ZDR hosts among them", () => {
    const multi = CATALOG.models.filter((m) => new Set(m.endpoints.map((e) => e.providerId)).size >= 2);
    expect(multi.length).toBeGreaterThanOrEqual(40);
    const gptOss = findModel("openai/gpt-oss-120b");
    expect(gptOss?.endpoints.map((e) => e.providerId)).toEqual([
      "groq",
      "together",
      "fireworks",
      "deepinfra",
      "cerebras",
      // Bedrock's Converse endpoint (bedrock-converse.ts), added after the open hosts like every cloud's.
      "amazon-bedrock",
    ]);
    // Fireworks and DeepInfra keep no prompts by their published policy (data-policy.ts); Groq does not claim it.
    const zdr = (provider: string) => gptOss?.endpoints.find((e) => e.providerId === provider)?.isZdr;
    expect([zdr("fireworks"), zdr("deepinfra"), zdr("groq")]).toEqual([true, true, false]);
    const maverick = findModel("meta-llama/llama-4-maverick")?.endpoints;
    expect(maverick?.find((e) => e.providerId === "together")?.quantization).toBe("fp8");
    expect(maverick?.find((e) => e.providerId === "groq")?.quantization).toBeNull();
    // The file's limits and prices per host: Cerebras caps gpt-oss-120b's output at 32,768.
    expect(gptOss?.endpoints.find((e) => e.providerId === "cerebras")).toMatchObject({
      upstreamModel: "gpt-oss-120b",
      contextLength: 131_072,
      maxCompletionTokens: 32_768,
      pricing: expect.objectContaining({ promptPico: 350_000n, completionPico: 750_000n }),
    });
  });

  it("answers to OpenRouter's ids for Claude (a dot in the version)", () => {
    expect(resolveModel("anthropic/claude-haiku-4.5")?.model.id).toBe("anthropic/claude-haiku-4-5");
    expect(resolveModel("anthropic/claude-sonnet-4.5")?.model.id).toBe("anthropic/claude-sonnet-4-5");
    expect(resolveModel("anthropic/claude-3.5-haiku")?.model.id).toBe("anthropic/claude-3-5-haiku");
    expect(resolveModel("anthropic/claude-opus-4.1")?.model.id).toBe("anthropic/claude-opus-4-1");
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
