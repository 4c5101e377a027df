import { describe, expect, it } from "vitest";
import {
  CATALOG,
  findModel,
  findProvider,
  MODELS,
  PROVIDERS,
  providerEnvVars,
  validateCatalog,
} from "./index.js";

const REQUIRED_MODELS = [
  "openai/gpt-4o-mini",
  "openai/gpt-4o",
  "openai/text-embedding-3-small",
  "anthropic/claude-sonnet-4",
  "anthropic/claude-3-5-haiku",
  "google/gemini-2.5-flash",
  "google/gemini-2.5-pro",
  "google/text-embedding-004",
  "meta-llama/llama-3.3-70b-instruct:free",
  "demo/echo",
];

describe("catalogue data", () => {
  it("has no invariant violations", () => {
    expect(validateCatalog()).toEqual([]);
  });

  it("lists the models the gateway promises", () => {
    for (const id of REQUIRED_MODELS) expect(findModel(id)?.id, id).toBe(id);
  });

  it("gives every model at least one endpoint on a known provider", () => {
    for (const model of MODELS) {
      expect(model.endpoints.length, model.id).toBeGreaterThan(0);
      for (const endpoint of model.endpoints)
        expect(findProvider(endpoint.providerId), model.id).toBeDefined();
    }
  });

  it("offers routing a choice of providers for an open-weight model", () => {
    const llama = findModel("meta-llama/llama-3.3-70b-instruct");
    expect(llama?.endpoints.map((e) => e.providerId)).toEqual([
      "groq",
      "together",
      "fireworks",
      "deepinfra",
      "cerebras",
      "amazon-bedrock",
    ]);
    const prices = llama?.endpoints.map((e) => e.pricing.promptPico);
    expect(new Set(prices).size).toBe(6);
  });

  it("converts list prices to exact pico-dollars per token", () => {
    const mini = findModel("openai/gpt-4o-mini")?.endpoints[0]?.pricing;
    expect(mini?.promptPico).toBe(150_000n);
    expect(mini?.completionPico).toBe(600_000n);
    expect(mini?.cacheReadPico).toBe(75_000n);
    const sonnet = findModel("anthropic/claude-sonnet-4")?.endpoints[0];
    expect(sonnet?.upstreamModel).toBe("claude-sonnet-4-20250514");
    expect(sonnet?.pricing.promptPico).toBe(3_000_000n);
    expect(sonnet?.pricing.completionPico).toBe(15_000_000n);
    expect(sonnet?.pricing.cacheWritePico).toBe(3_750_000n);
    expect(sonnet?.pricing.cacheReadPico).toBe(300_000n);
    expect(findModel("anthropic/claude-3-5-haiku")?.endpoints[0]?.upstreamModel).toBe(
      "claude-3-5-haiku-20241022",
    );
    expect(findModel("google/gemini-2.5-flash")?.endpoints[0]?.pricing.cacheReadPico).toBe(30_000n);
    expect(findModel("openai/text-embedding-3-small")?.endpoints[0]?.pricing.promptPico).toBe(20_000n);
    // 1,000 prompt tokens on gpt-4o-mini cost exactly $0.00015.
    expect(1000n * (mini?.promptPico ?? 0n)).toBe(150_000_000n);
  });

  it("prices :free models at zero and the demo above zero", () => {
    const free = findModel("meta-llama/llama-3.3-70b-instruct:free");
    expect(free?.isFree).toBe(true);
    expect(Object.values(free?.endpoints[0]?.pricing ?? {})).toEqual(Array(9).fill(0n));
    const demo = findModel("demo/echo")?.endpoints[0];
    expect(demo?.providerId).toBe("demo");
    expect(demo?.pricing.promptPico).toBeGreaterThan(0n);
    expect(findModel("openai/gpt-4o")?.isFree).toBe(false);
  });

  it("derives author and context from the data", () => {
    const flash = findModel("google/gemini-2.5-flash");
    expect(flash?.author).toBe("google");
    expect(flash?.contextLength).toBe(1_048_576);
    expect(findModel("openai/text-embedding-3-small")?.kind).toBe("embedding");
  });
});

describe("providers", () => {
  it("names credentials by env prefix, GEMINI for google", () => {
    const google = PROVIDERS.find((p) => p.id === "google");
    expect(google && providerEnvVars(google)).toEqual({
      apiKey: "GEMINI_API_KEY",
      baseUrl: "GEMINI_BASE_URL",
    });
    const openai = PROVIDERS.find((p) => p.id === "openai");
    expect(openai?.defaultBaseUrl).toBe("https://api.openai.com/v1");
    expect(PROVIDERS.find((p) => p.id === "anthropic")?.defaultBaseUrl).toBe("https://api.anthropic.com");
  });

  it("needs no key for local servers and labels the demo", () => {
    expect(PROVIDERS.filter((p) => !p.requiresKey).map((p) => p.id)).toEqual(["ollama", "vllm", "demo"]);
    const demo = PROVIDERS.find((p) => p.isDemo);
    expect(demo).toMatchObject({ id: "demo", apiFormat: "openai", defaultBaseUrl: null });
    expect(demo?.name).toBe("Built-in demo provider (not a real model)");
  });
});

describe("validateCatalog", () => {
  it("reports a model without endpoints and an unknown provider", () => {
    const [first, second] = MODELS;
    if (!first || !second) throw new Error("catalogue is empty");
    const broken = {
      providers: CATALOG.providers,
      models: [
        { ...first, endpoints: [] },
        { ...second, endpoints: second.endpoints.map((e) => ({ ...e, providerId: "nowhere" })) },
      ],
    };
    const problems = validateCatalog(broken);
    expect(problems).toContain(`model ${first.id}: no endpoints`);
    expect(problems).toContain(`model ${second.id} on nowhere: unknown provider`);
  });

  it("refuses a priced :free model and a real model on the demo provider", () => {
    const mini = findModel("openai/gpt-4o-mini");
    if (!mini) throw new Error("missing gpt-4o-mini");
    const broken = {
      providers: CATALOG.providers,
      models: [
        { ...mini, id: "openai/gpt-4o-mini:free", isFree: true },
        { ...mini, endpoints: mini.endpoints.map((e) => ({ ...e, providerId: "demo" })) },
      ],
    };
    const problems = validateCatalog(broken);
    expect(problems).toContain("model openai/gpt-4o-mini:free on openai: a :free model must cost nothing");
    expect(problems).toContain("model openai/gpt-4o-mini on demo: demo provider/model mismatch");
  });
});
