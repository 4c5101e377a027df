import { GatewayError } from "@gw/errors";
import { describe, expect, it } from "vitest";
import { promptText, typicalPromptTokens } from "../canonical/prompt-text.js";
import { CatalogHolder } from "../catalog/catalog-holder.js";
import { ProviderRegistry } from "../providers/registry.js";
import type { ChatCall, ProviderAdapter } from "../providers/types.js";
import { testEndpoint, testModel, testSnapshot, testSnapshotResponse } from "../test/catalog.js";
import { testKey } from "../test/principals.js";
import { EndpointHealth } from "./health.js";
import { type PlanInput, planRoute } from "./plan.js";
import { Planner } from "./planner.js";

// Context length and output caps in the plan (issue 12): an endpoint the prompt and answer do not fit is
// excluded with the reason `context_length`, so a roomier endpoint or fallback model serves instead.

const snapshot = testSnapshot([
  testModel("meta/llama", [
    testEndpoint("groq", { contextLength: 64_000, maxCompletionTokens: 8_000, prompt: "0.5" }),
    testEndpoint("together", { contextLength: 128_000, maxCompletionTokens: 4_000, prompt: "1" }),
  ]),
  testModel("google/long", [
    testEndpoint("google", { contextLength: 1_000_000, maxCompletionTokens: 65_536 }),
  ]),
]);

const plan = (overrides: Partial<PlanInput>) =>
  planRoute({
    snapshot,
    kind: "chat",
    model: "meta/llama",
    fallbacks: [],
    preferences: undefined,
    requestedParameters: [],
    allowedModels: undefined,
    allowedProviders: undefined,
    availability: () => ({ usable: true }),
    random: () => 0.5,
    ...overrides,
  });

describe("planning for context length and output caps", () => {
  it("excludes the endpoint a ~70k-token prompt does not fit and keeps the one it does", () => {
    const result = plan({ room: { promptTokens: 70_000, maxTokens: undefined } });
    expect(result.attempts.map((attempt) => attempt.endpoint.providerId)).toEqual(["together"]);
    expect(result.excluded).toEqual([
      expect.objectContaining({ model: "meta/llama", provider: "groq", code: "context_length" }),
    ]);
  });

  it("keeps an endpoint whose output cap is below max_tokens when its context holds the prompt and max_tokens", () => {
    const result = plan({ room: { promptTokens: 100, maxTokens: 6_000 } });
    expect(result.attempts.map((attempt) => attempt.endpoint.providerId).sort()).toEqual([
      "groq",
      "together",
    ]);
    expect(result.excluded).toEqual([]);
  });

  it("falls back to a model with room, and names context_length when nothing has any", () => {
    const fallback = plan({ fallbacks: ["google/long"], room: { promptTokens: 200_000, maxTokens: 1_000 } });
    expect(fallback.attempts.map((attempt) => attempt.model.id)).toEqual(["google/long"]);
    let error: unknown;
    try {
      plan({ room: { promptTokens: 200_000, maxTokens: 1_000 } });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(GatewayError);
    // The caller's to fix (a 503 made the official SDKs retry a request that can never fit).
    expect(error).toMatchObject({ status: 400, code: "context_length_exceeded" });
    expect((error as GatewayError).message).toBe(
      "the request does not fit meta/llama at groq: about 200000 prompt tokens plus 1000 of output exceed its context of 64000",
    );
    const excluded = (error as GatewayError).metadata?.excluded as { code: string }[];
    expect(excluded.map((entry) => entry.code)).toEqual(["context_length", "context_length"]);
  });

  it("stays a 503 when an endpoint with room is only down, not too small", () => {
    const down = {
      usable: false as const,
      code: "provider_not_configured" as const,
      reason: "no credential",
    };
    const availability = (provider: string) => (provider === "together" ? down : { usable: true as const });
    expect(() => plan({ availability, room: { promptTokens: 70_000, maxTokens: undefined } })).toThrow(
      expect.objectContaining({ status: 503, code: "no_available_provider" }),
    );
  });

  it("is the caller's 400 when the endpoint that is not configured would not fit the request either", () => {
    // The hostile-input suite's case: max_tokens near the whole context, and a second endpoint (a cloud
    // without credentials here) just as small. Shortening is the only fix, so the SDKs must not retry.
    const down = {
      usable: false as const,
      code: "provider_not_configured" as const,
      reason: "no credential",
    };
    const availability = (provider: string) => (provider === "together" ? down : { usable: true as const });
    expect(() => plan({ availability, room: { promptTokens: 5, maxTokens: 127_996 } })).toThrow(
      expect.objectContaining({ status: 400, code: "context_length_exceeded" }),
    );
  });

  it("does not check room when none is given (token counting, embeddings)", () => {
    expect(plan({ room: undefined }).attempts).toHaveLength(2);
  });
});

describe("the planner's room for a chat request", () => {
  const calls: ChatCall[] = [];
  const adapter: ProviderAdapter = {
    id: "openai",
    apiFormat: "openai",
    isDemo: false,
    chat: {
      complete: async (call) => {
        calls.push(call);
        return Promise.reject(new Error("only recorded"));
      },
    },
    unsupported: undefined,
    close: async () => {},
  };

  async function planner() {
    // testEndpoint: an 8,000-token context and a 1,000-token output cap.
    const catalog = new CatalogHolder(async () =>
      testSnapshotResponse([testModel("openai/gpt", [testEndpoint("openai")])]),
    );
    await catalog.refresh();
    return new Planner({
      catalog,
      providers: new ProviderRegistry([adapter]),
      byok: undefined,
      health: new EndpointHealth({ get: () => undefined }, () => 0),
      random: () => 0,
    });
  }

  // About 10,000 tokens of English at four bytes a token: more than the endpoint's context.
  const long = { model: "openai/gpt", messages: [{ role: "user" as const, content: "word ".repeat(8_000) }] };
  const principal = testKey("acct-1").principal;

  it("routes nothing to an endpoint the prompt does not fit, but still lets token counting check it", async () => {
    const p = await planner();
    await expect(p.route({ principal, request: long, kind: "chat" })).rejects.toMatchObject({
      status: 400,
      code: "context_length_exceeded",
      metadata: { excluded: [expect.objectContaining({ code: "context_length" })] },
    });
    expect(p.check({ principal, request: long, kind: "chat" }).attempts).toHaveLength(1);
    const short = { ...long, messages: [{ role: "user" as const, content: "hi" }], max_tokens: 500 };
    expect((await p.route({ principal, request: short, kind: "chat" })).attempts).toHaveLength(1);
    // Above the 1,000 output cap but within the context: served (with the cap, see below).
    expect(
      (await p.route({ principal, request: { ...short, max_tokens: 2_000 }, kind: "chat" })).attempts,
    ).toHaveLength(1);
    // Above the context minus the prompt, OpenRouter's documented maximum for max_tokens: the caller's 400.
    await expect(
      p.route({ principal, request: { ...short, max_tokens: 9_000 }, kind: "chat" }),
    ).rejects.toMatchObject({
      status: 400,
      code: "context_length_exceeded",
    });
  });

  it("hands each chat call its endpoint's supported_parameters, for dropping what the host does not list", async () => {
    const route = await (await planner()).route({
      principal,
      request: { ...long, messages: [] },
      kind: "chat",
    });
    const first = route.attempts[0];
    const chat = first ? route.adapterFor(first)?.chat : undefined;
    await chat
      ?.complete({ request: long, upstreamModel: "m", stream: false, signal: new AbortController().signal })
      .catch(() => {});
    expect(calls.at(-1)?.supportedParameters).toEqual(["max_tokens", "temperature", "stream"]);
  });

  it("hands each chat call its endpoint's output cap and lowers a larger max_tokens to it", async () => {
    const route = await (await planner()).route({
      principal,
      request: { ...long, messages: [] },
      kind: "chat",
    });
    const first = route.attempts[0];
    const chat = first ? route.adapterFor(first)?.chat : undefined;
    const signal = new AbortController().signal;
    const ask = (request: typeof long & { max_tokens?: number; max_completion_tokens?: number }) =>
      chat?.complete({ request, upstreamModel: "m", stream: false, signal }).catch(() => {});
    await ask({ ...long, max_tokens: 128_000, max_completion_tokens: 5_000 });
    expect(calls.at(-1)?.outputCap).toBe(1_000);
    expect(calls.at(-1)?.request).toMatchObject({ max_tokens: 1_000, max_completion_tokens: 1_000 });
    await ask({ ...long, max_tokens: 600 });
    expect(calls.at(-1)?.request.max_tokens).toBe(600);
    await ask(long);
    expect(calls.at(-1)?.request.max_tokens).toBeUndefined();
  });

  it("with middle-out, serves an endpoint the prompt does not fit, compressed to its context minus the output", async () => {
    const p = await planner();
    // About 10,000 tokens on an 8,000-token endpoint: within OpenRouter's half rule.
    const request = {
      ...long,
      messages: [
        { role: "system" as const, content: "Be brief." },
        ...Array.from({ length: 40 }, (_, index) => ({
          role: "user" as const,
          content: `${index} ${"word ".repeat(200)}`,
        })),
      ],
    };
    const route = await p.route({ principal, request, kind: "chat", middleOut: true });
    const first = route.attempts[0];
    expect(first?.transforms).toEqual(["middle-out"]);
    const chat = first ? route.adapterFor(first)?.chat : undefined;
    await chat
      ?.complete({ request, upstreamModel: "m", stream: false, signal: new AbortController().signal })
      .catch(() => {});
    const sent = calls.at(-1)?.request;
    // 8,000 of context less the 1,000 planned for the answer (the endpoint's cap).
    expect(typicalPromptTokens(promptText(sent ?? request))).toBeLessThanOrEqual(7_000);
    expect(sent?.messages[0]?.content).toBe("Be brief.");
    expect(String(sent?.messages.at(-1)?.content).startsWith("39 ")).toBe(true);
    // A prompt that fits is not marked, nor changed.
    const short = { ...long, messages: [{ role: "user" as const, content: "hi" }] };
    const plain = await p.route({ principal, request: short, kind: "chat", middleOut: true });
    expect(plain.attempts[0]?.transforms).toBeUndefined();
  });

  it("with middle-out, still refuses a prompt more than twice the context (OpenRouter's half rule)", async () => {
    const p = await planner();
    const huge = { ...long, messages: [{ role: "user" as const, content: "word ".repeat(16_000) }] };
    await expect(p.route({ principal, request: huge, kind: "chat", middleOut: true })).rejects.toMatchObject({
      status: 400,
      code: "context_length_exceeded",
    });
  });
});
