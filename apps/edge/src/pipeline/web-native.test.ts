import { describe, expect, it } from "vitest";
import type { RequestFeatures, WebPlugin } from "../canonical/plugins.js";
import type { TokenUsage } from "../canonical/tokens.js";
import type { PlannedAttempt } from "../planning/plan.js";
import type { Route } from "../planning/planner.js";
import type { ApiFormat, ProviderAdapter } from "../providers/types.js";
import { vertexSearchTarget } from "../providers/vertex/index.js";
import { testEndpoint, testModel } from "../test/catalog.js";
import { testKey } from "../test/principals.js";
import { DEFAULT_SETTINGS } from "./edge-context.js";
import { type Ending, finishGeneration, type GenerationSubject } from "./finish-generation.js";
import { nativeSearchCharge, nativeSearchHoldPico, webServing } from "./web-native.js";

const SEARCH = ["max_tokens", "stream", "web_search_options"];
const FORMATS: Record<string, ApiFormat> = {
  vertex: "anthropic",
  anthropic: "anthropic",
  google: "gemini",
  openai: "openai",
  groq: "openai",
};

function attempt(providerId: string, upstreamModel: string, parameters = SEARCH): PlannedAttempt {
  const endpoint = testEndpoint(providerId, { upstreamModel, supportedParameters: parameters });
  return { model: testModel(`x/${upstreamModel}`, [endpoint]), endpoint };
}

function route(...attempts: PlannedAttempt[]): Route {
  return {
    attempts,
    adapterFor: (planned) =>
      ({
        apiFormat: FORMATS[planned.endpoint.providerId],
        nativeWebSearch: planned.endpoint.providerId !== "vertex",
      }) as ProviderAdapter,
  };
}

const claude = attempt("anthropic", "claude-sonnet-4");
const gemini = attempt("google", "gemini-2.5-flash");
const gpt = attempt("openai", "gpt-4o-search-preview");
const plainGpt = attempt("openai", "gpt-4o-mini", ["max_tokens"]);
// Lists the parameter, but the gateway has no price for its searches: never native.
const unpriced = attempt("groq", "llama-3", SEARCH);
// Claude on Vertex lists it and would be priced, but the Vertex adapter does not send the tool.
const unsent = attempt("vertex", "claude-sonnet-4@20250514", SEARCH);

const features = (web: Partial<WebPlugin> = {}): RequestFeatures => ({
  middleOut: false,
  pdf: undefined,
  web: {
    maxResults: 5,
    searchPrompt: undefined,
    includeDomains: undefined,
    excludeDomains: undefined,
    ...web,
  },
});

describe("webServing: the provider's own search or the operator's", () => {
  it("is native when every planned endpoint has a priced native search, whatever the search API", () => {
    const served = webServing(features(), route(claude, gemini), true);
    expect(served.exa).toBe(false);
    expect(served.native).toEqual({ maxUses: 5, includeDomains: undefined, excludeDomains: undefined });
    expect(served.route.attempts).toEqual([claude, gemini]);
  });

  it("uses the search API when one planned endpoint has none (a failover must still search)", () => {
    for (const other of [plainGpt, unpriced, unsent]) {
      const served = webServing(features(), route(claude, other), true);
      expect(served).toMatchObject({ exa: true, native: undefined });
      expect(served.route.attempts).toHaveLength(2);
    }
  });

  it("keeps only the native endpoints when native is asked for or no search API is configured", () => {
    expect(webServing(features({ engine: "native" }), route(plainGpt, gpt), true).route.attempts).toEqual([
      gpt,
    ]);
    expect(webServing(features({ maxUses: 2 }), route(plainGpt, claude), true).native?.maxUses).toBe(2);
    expect(webServing(features(), route(plainGpt, gpt), false).route.attempts).toEqual([gpt]);
  });

  it("is a 400 naming the plugin when nothing can search", () => {
    expect(() => webServing(features({ field: "plugins[0]" }), route(plainGpt), false)).toThrow(
      "plugins[0]: the web plugin needs a search provider and no search provider is configured on this gateway",
    );
    expect(() =>
      webServing(features({ engine: "native", field: "plugins[1]" }), route(plainGpt), true),
    ).toThrow("plugins[1]: no endpoint planned for this request offers the provider's own web search");
  });

  it("an explicit engine exa never searches natively", () => {
    expect(webServing(features({ engine: "exa" }), route(claude), true)).toMatchObject({
      exa: true,
      native: undefined,
    });
  });
});

describe("native search prices", () => {
  it("holds the dearest endpoint's searches at their most: Anthropic max_uses × $0.01, the others one search", () => {
    const held = (planned: Route, maxUses?: number) =>
      nativeSearchHoldPico(webServing(features({ engine: "native", maxUses }), planned, false));
    expect(held(route(claude), 3)).toBe(3n * 10_000_000_000n);
    // Gemini 2.x: $0.035 per grounded prompt; gpt-4o-search-preview: $0.035 per call.
    expect(held(route(claude, gemini), 2)).toBe(35_000_000_000n);
    expect(held(route(gpt))).toBe(35_000_000_000n);
    // Gemini 3 bills each query ($0.014) and has no cap: held at max_uses.
    expect(held(route(attempt("google", "gemini-3-flash-preview")), 2)).toBe(2n * 14_000_000_000n);
    expect(held(route(attempt("openai", "gpt-4o-mini-search-preview")))).toBe(27_500_000_000n);
  });

  const usage = {
    promptTokens: 1,
    completionTokens: 1,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  };
  const native = { maxUses: 5, includeDomains: undefined, excludeDomains: undefined };
  const charge = (planned: Route, served: PlannedAttempt, reported: TokenUsage, estimated = false) =>
    nativeSearchCharge(planned, served, { usage: reported, estimated }, native);

  it("bills what the provider reports: Anthropic's and Gemini's counts, OpenAI once per call", () => {
    const planned = route(claude, gemini, gpt);
    expect(charge(planned, claude, { ...usage, webSearches: 3 }).pico).toBe(30_000_000_000n);
    expect(charge(planned, claude, usage).pico).toBe(0n);
    expect(charge(planned, gemini, { ...usage, webSearches: 1 }).pico).toBe(35_000_000_000n);
    // Gemini 2.x: a grounded answer is billed once however many queries it ran; Gemini 3: each query.
    expect(charge(planned, gemini, { ...usage, webSearches: 3 })).toEqual({
      searches: 1,
      pico: 35_000_000_000n,
    });
    const gemini3 = attempt("google", "gemini-3-flash-preview");
    expect(charge(route(gemini3), gemini3, { ...usage, webSearches: 3 }).pico).toBe(3n * 14_000_000_000n);
    expect(charge(planned, gpt, usage).pico).toBe(35_000_000_000n);
    expect(charge(route(plainGpt), plainGpt, usage).pico).toBe(0n);
  });

  it("estimated usage: the searches the answer showed; a Gemini answer that showed none, the searches held", () => {
    // Anthropic streams each search's block before its use: what was shown is what ran, none is none.
    expect(charge(route(claude), claude, { ...usage, webSearches: 2 }, true).pico).toBe(2n * 10_000_000_000n);
    expect(charge(route(claude), claude, usage, true).pico).toBe(0n);
    // Gemini shows its queries last: shown, they are billed; not shown, the hold's searches are.
    expect(charge(route(gemini), gemini, { ...usage, webSearches: 3 }, true).pico).toBe(35_000_000_000n);
    expect(charge(route(gemini), gemini, usage, true)).toEqual({ searches: 1, pico: 35_000_000_000n });
    const gemini3 = attempt("google", "gemini-3-flash-preview");
    expect(charge(route(gemini3), gemini3, usage, true)).toEqual({ searches: 5, pico: 5n * 14_000_000_000n });
    expect(charge(route(gemini3), gemini3, usage, false).pico).toBe(0n);
    expect(charge(route(gpt), gpt, usage, true).pico).toBe(35_000_000_000n);
  });

  it("never bills past what was held: Gemini 3's queries beyond max_uses are unbilled, and said so", () => {
    const gemini3 = attempt("google", "gemini-3-flash-preview");
    const held = nativeSearchHoldPico(webServing(features({ engine: "native" }), route(gemini3), false));
    const ran = charge(route(gemini3), gemini3, { ...usage, webSearches: 8 });
    expect(ran).toEqual({ searches: 5, pico: 5n * 14_000_000_000n, unbilled: 3 });
    expect(ran.pico).toBe(held);
    expect(charge(route(gemini3), gemini3, { ...usage, webSearches: 5 })).not.toHaveProperty("unbilled");
    // Anthropic enforces max_uses itself; a report past it is still held to it.
    expect(charge(route(claude), claude, { ...usage, webSearches: 6 }).pico).toBe(5n * 10_000_000_000n);
  });

  it("the searches past the hold are on the generation record and in a warning, and not charged", () => {
    const gemini3 = attempt("google", "gemini-3-flash-preview");
    const warnings: unknown[] = [];
    const charged: bigint[] = [];
    const context = {
      settings: DEFAULT_SETTINGS,
      admission: { finish: (_hold: unknown, pico: bigint) => void charged.push(pico) },
      meter: { charge: (record: { cost: { totalPico: bigint } }) => record.cost.totalPico, record: () => {} },
      logger: { warn: (fields: unknown) => void warnings.push(fields) },
    } as unknown as Parameters<typeof finishGeneration>[0];
    const key = testKey("acct-web-native-unit");
    const subject: GenerationSubject = {
      generationId: "gen-1",
      principal: key.principal,
      startedAt: 0,
      apiType: "chat",
      requestedModel: gemini3.model.id,
      hold: { holdId: "gen-1", accountId: key.principal.accountId, keyHash: key.principal.keyHash },
      nativeSearch: (served, measured) => nativeSearchCharge(route(gemini3), served, measured, native),
    };
    const ending: Ending = {
      served: true,
      success: { attempt: gemini3, startedAt: 0, records: [] },
      streamed: false,
      cancelled: false,
      measured: { usage: { ...usage, webSearches: 7 }, estimated: false, images: 0 },
      finishReason: "stop",
      nativeFinishReason: "STOP",
      upstreamId: undefined,
      endedAt: 1,
    };
    const { record } = finishGeneration(context, subject, ending);
    expect(record.webSearch).toEqual({ engine: "native", count: 5, unbilled: 2 });
    expect(record.cost.webSearchPico).toBe(5n * 14_000_000_000n);
    expect(charged).toEqual([record.cost.totalPico]);
    expect(warnings).toEqual([expect.objectContaining({ generationId: "gen-1", unbilled: 2 })]);
  });

  it("prices a Vertex endpoint's search by what it sends: Gemini's grounding on its Gemini models, none on Claude", () => {
    const usage = {
      promptTokens: 1,
      completionTokens: 1,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    };
    // The Vertex adapter's format is Anthropic's (Claude fails over to it); its search is Gemini's.
    const vertex = {
      apiFormat: "anthropic",
      nativeWebSearch: (model: string) => vertexSearchTarget(model, { project: "p", location: "global" }),
    } as ProviderAdapter;
    const onVertex: Route["adapterFor"] = () => vertex;
    const flash = attempt("google-vertex", "gemini-2.5-flash");
    const pro3 = attempt(
      "google-vertex",
      "projects/proj-1/locations/global/publishers/google/models/gemini-3-pro",
    );
    const sonnet = attempt("google-vertex", "claude-sonnet-4@20250514");
    const held = (planned: PlannedAttempt) =>
      nativeSearchHoldPico(
        webServing(
          features({ engine: "native", maxUses: 4 }),
          { attempts: [planned], adapterFor: onVertex },
          false,
        ),
      );
    // Gemini 2.x: once per grounded answer at $0.035; Gemini 3 (named by its resource): $0.014 per query.
    expect(held(flash)).toBe(35_000_000_000n);
    expect(held(pro3)).toBe(4n * 14_000_000_000n);
    const planned: Route = { attempts: [flash, pro3], adapterFor: onVertex };
    const reported = { usage: { ...usage, webSearches: 3 }, estimated: false };
    const maxUses4 = { maxUses: 4, includeDomains: undefined, excludeDomains: undefined };
    expect(nativeSearchCharge(planned, flash, reported, maxUses4).pico).toBe(35_000_000_000n);
    expect(nativeSearchCharge(planned, pro3, reported, maxUses4).pico).toBe(3n * 14_000_000_000n);
    // Claude on Vertex lists the parameter but is sent no tool: no native search, so the search API.
    expect(webServing(features(), { attempts: [sonnet], adapterFor: onVertex }, true)).toMatchObject({
      exa: true,
      native: undefined,
    });
  });
});
