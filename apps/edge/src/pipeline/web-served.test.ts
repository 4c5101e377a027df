import { listPrice } from "@gw/catalog";
import { describe, expect, it } from "vitest";
import type { PlannedAttempt } from "../planning/plan.js";
import { testEndpoint, testModel } from "../test/catalog.js";
import { testKey } from "../test/principals.js";
import { DEFAULT_SETTINGS } from "./edge-context.js";
import { type Ending, finishGeneration, type GenerationSubject } from "./finish-generation.js";
import { urlCitations } from "./web-citations.js";
import { searchQuery, withSearchResults } from "./web-prompt.js";
import type { WebResult } from "./web-search.js";
import { WEB_RESULT_PICO, webSearchHoldPico, webSearchPico } from "./web-served.js";

const results: WebResult[] = [
  { url: "https://a.example/x", title: "A", text: "alpha", publishedDate: "2026-01-02T00:00:00Z" },
  { url: "https://b.example/", title: "B", text: undefined, publishedDate: undefined },
];

describe("the web plugin's prompt", () => {
  it("searches the last user message's text", () => {
    const request = {
      model: "m",
      messages: [
        { role: "user" as const, content: "first" },
        { role: "assistant" as const, content: "ok" },
        {
          role: "user" as const,
          content: [
            { type: "text", text: "second" },
            { type: "text", text: "part" },
          ],
        },
      ],
    };
    expect(searchQuery(request)).toBe("second\npart");
    expect(searchQuery({ model: "m", messages: [{ role: "system", content: "s" }] })).toBeUndefined();
  });

  it("puts the results in a system message just before the last user message, dated", () => {
    const request = {
      model: "m",
      messages: [
        { role: "system" as const, content: "be brief" },
        { role: "user" as const, content: "q" },
      ],
    };
    const sent = withSearchResults(request, results, undefined, Date.parse("2026-03-04T12:00:00Z"));
    expect(sent.messages.map((message) => message.role)).toEqual(["system", "system", "user"]);
    expect(sent.messages[1]?.content).toBe(
      "A web search was conducted on 2026-03-04. Incorporate the following web search results into your response.\n\n" +
        "IMPORTANT: Cite them using markdown links named using the domain of the source.\n" +
        "Example: [nytimes.com](https://nytimes.com/some-page).\n\n" +
        "[1] [A](https://a.example/x) (published 2026-01-02)\nalpha\n\n" +
        "[2] [B](https://b.example/)",
    );
    expect(request.messages).toHaveLength(2);
  });
});

describe("the web plugin's citations", () => {
  it("cites each result the text links or names, at its span, in text order", () => {
    const text = "See https://b.example/ and [a.example](https://a.example/x).";
    expect(urlCitations(text, results)).toEqual([
      {
        type: "url_citation",
        url_citation: { url: "https://b.example/", title: "B", start_index: 4, end_index: 22 },
      },
      {
        type: "url_citation",
        url_citation: {
          url: "https://a.example/x",
          title: "A",
          content: "alpha",
          start_index: 27,
          end_index: 59,
        },
      },
    ]);
    expect(text.slice(27, 59)).toBe("[a.example](https://a.example/x)");
    expect(text.slice(4, 22)).toBe("https://b.example/");
    expect(urlCitations("nothing cited", results)).toEqual([]);
  });
});

describe("the web plugin's price and record", () => {
  it("holds max_results and bills the results brought, at $0.004 each", () => {
    expect(WEB_RESULT_PICO).toBe(4_000_000_000n);
    expect(
      webSearchHoldPico({
        maxResults: 7,
        searchPrompt: undefined,
        includeDomains: undefined,
        excludeDomains: undefined,
      }),
    ).toBe(28_000_000_000n);
    expect(webSearchHoldPico(undefined)).toBe(0n);
    expect(webSearchPico(results)).toBe(8_000_000_000n);
  });

  it("adds the search to the served generation's cost and records the plugin", () => {
    const model = testModel("openai/gpt-4o-mini", [
      testEndpoint("openai", { pricing: listPrice({ prompt: "1", completion: "2" }) }),
    ]);
    const attempt: PlannedAttempt = { model, endpoint: model.endpoints[0] as PlannedAttempt["endpoint"] };
    const key = testKey("acct-web-unit");
    const charged: bigint[] = [];
    const context = {
      settings: DEFAULT_SETTINGS,
      admission: { finish: (_hold: unknown, pico: bigint) => void charged.push(pico) },
      meter: { charge: (record: { cost: { totalPico: bigint } }) => record.cost.totalPico, record: () => {} },
    } as unknown as Parameters<typeof finishGeneration>[0];
    const subject: GenerationSubject = {
      generationId: "gen-1",
      principal: key.principal,
      startedAt: 0,
      apiType: "chat",
      requestedModel: model.id,
      hold: { holdId: "gen-1", accountId: key.principal.accountId, keyHash: key.principal.keyHash },
      webSearchPico: 8_000_000_000n,
      plugins: ["web"],
    };
    const usage = {
      promptTokens: 10,
      completionTokens: 5,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    };
    const ending: Ending = {
      served: true,
      success: { attempt, startedAt: 0, records: [] },
      streamed: false,
      cancelled: false,
      measured: { usage, estimated: false, images: 0 },
      finishReason: "stop",
      nativeFinishReason: "stop",
      upstreamId: undefined,
      endedAt: 1,
    };
    const { record } = finishGeneration(context, subject, ending);
    // $1/M prompt, $2/M completion: 10 + 10 micro-dollars = 2·10⁷ pico, plus the search.
    expect(record.cost.totalPico).toBe(20_000_000n + 8_000_000_000n);
    expect(record.cost.webSearchPico).toBe(8_000_000_000n);
    expect(record.plugins).toEqual(["web"]);
    expect(charged).toEqual([20_000_000n + 8_000_000_000n]);
  });
});
