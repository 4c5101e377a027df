import { listPrice } from "@gw/catalog";
import { type FakeVertex, startFakeVertex } from "@gw/fake-providers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testEndpoint, testModel } from "../test/catalog.js";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";
import { usageEventFor } from "../test/usage.js";

// The web plugin and `:online` on the providers' own search, no search API configured: each format's
// fake (fake-providers anthropic/web-search.ts, gemini/grounding.ts, openai/web-search.ts) is sent its
// search tool, answers with its own citations, and the chat surface returns them as url_citation
// annotations, streamed and not; each search is priced per the catalogue on top of the model.

const key = testKey("acct-web-native");
const SEARCH = ["max_tokens", "stream", "web_search_options"];
const price = { pricing: { ...listPrice({ prompt: "1", completion: "2" }) }, supportedParameters: SEARCH };
const VERTEX_TOKEN = "ya29.web-native-vertex";
let edge: EdgeHarness;
// Vertex AI serving Gemini: the same googleSearch tool, priced as Gemini's (not at the Vertex adapter's
// Anthropic format, which is what its Claude models fail over in).
let vertex: FakeVertex;

beforeAll(async () => {
  vertex = await startFakeVertex({ staticTokens: [VERTEX_TOKEN] });
  edge = await startEdgeHarness({
    keys: [key],
    env: {
      VERTEX_ACCESS_TOKEN: VERTEX_TOKEN,
      VERTEX_PROJECT: "test-project",
      VERTEX_LOCATION: "us-east5",
      VERTEX_BASE_URL: vertex.url,
    },
    extraModels: [
      testModel("google/gemini-vertex-search", [
        testEndpoint("google-vertex", { upstreamModel: "gemini-2.5-flash", ...price }),
      ]),
      testModel("anthropic/claude-search", [
        testEndpoint("anthropic", {
          upstreamModel: "claude-sonnet-4-20250514",
          maxCompletionTokens: 64_000,
          ...price,
        }),
      ]),
      testModel("google/gemini-search", [
        testEndpoint("google", { upstreamModel: "gemini-2.5-flash", ...price }),
      ]),
      testModel("openai/gpt-4o-search-preview", [
        testEndpoint("openai", { upstreamModel: "gpt-4o-search-preview", ...price }),
      ]),
    ],
  });
});
afterAll(async () => {
  await edge?.stop();
  await vertex?.close();
});
beforeEach(() => {
  for (const fake of [edge.primary, edge.anthropic, edge.gemini, vertex]) fake.clearRequests();
});

const QUESTION = "What happened in Café land today?";

function chat(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${edge.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
    body: JSON.stringify({ max_tokens: 300, messages: [{ role: "user", content: QUESTION }], ...body }),
  });
}

interface Annotation {
  type: string;
  url_citation: { url: string; title: string; start_index: number; end_index: number };
}
interface Usage {
  cost: number;
  cost_details: { upstream_inference_cost: number; upstream_inference_web_search_cost?: number };
}

/** The answer's text, annotations and usage, from a JSON body or an event stream. */
async function answerOf(response: Response, stream: boolean) {
  expect(response.status).toBe(200);
  if (!stream) {
    const body = (await response.json()) as {
      choices: { message: { content: string; annotations?: Annotation[] } }[];
      usage: Usage;
    };
    const message = body.choices[0]?.message;
    return { text: message?.content ?? "", annotations: message?.annotations ?? [], usage: body.usage };
  }
  const chunks = (await response.text())
    .split("\n\n")
    .filter((frame) => frame.startsWith("data: {"))
    .map(
      (frame) =>
        JSON.parse(frame.slice(6)) as { choices: { delta: Record<string, unknown> }[]; usage?: Usage },
    );
  const deltas = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
  return {
    text: deltas.map((delta) => (typeof delta.content === "string" ? delta.content : "")).join(""),
    annotations: deltas.flatMap((delta) => (delta.annotations as Annotation[] | undefined) ?? []),
    usage: chunks.at(-1)?.usage as Usage,
  };
}

const cases = [
  {
    format: "Anthropic",
    model: "anthropic/claude-search",
    fake: () => edge.anthropic,
    sent: (body: Record<string, unknown>) =>
      expect(body.tools).toEqual([{ type: "web_search_20250305", name: "web_search", max_uses: 5 }]),
    // One search at $0.01; the hold: max_uses (5) of them.
    searchUsd: 0.01,
    heldPico: 5n * 10_000_000_000n,
    cited: (text: string, annotation: Annotation) =>
      expect(
        text.slice(annotation.url_citation.start_index, annotation.url_citation.end_index),
      ).not.toContain("Here is what I found."),
  },
  {
    format: "Gemini",
    model: "google/gemini-search",
    fake: () => edge.gemini,
    sent: (body: Record<string, unknown>) => expect(body.tools).toEqual([{ googleSearch: {} }]),
    searchUsd: 0.035,
    heldPico: 35_000_000_000n,
    cited: (text: string, annotation: Annotation) =>
      expect(annotation.url_citation.end_index).toBeLessThanOrEqual(text.length),
  },
  {
    format: "Gemini on Vertex AI",
    model: "google/gemini-vertex-search",
    fake: () => vertex,
    sent: (body: Record<string, unknown>) => expect(body.tools).toEqual([{ googleSearch: {} }]),
    // Gemini 2.x's $0.035 per grounded answer, held once (Anthropic's would be 5 x $0.01).
    searchUsd: 0.035,
    heldPico: 35_000_000_000n,
    cited: (text: string, annotation: Annotation) =>
      expect(annotation.url_citation.end_index).toBeLessThanOrEqual(text.length),
  },
  {
    format: "OpenAI",
    model: "openai/gpt-4o-search-preview",
    fake: () => edge.primary,
    sent: (body: Record<string, unknown>) =>
      expect(body.web_search_options).toEqual({ search_context_size: "medium" }),
    searchUsd: 0.035,
    heldPico: 35_000_000_000n,
    cited: (text: string, annotation: Annotation) =>
      expect(text.slice(annotation.url_citation.start_index, annotation.url_citation.end_index)).toBe(
        `[search-1.example.com](${annotation.url_citation.url})`,
      ),
  },
];

describe.each(cases)("native web search on $format", ({ model, fake, sent, searchUsd, heldPico, cited }) => {
  for (const [how, stream, body] of [
    ["the web plugin", false, { model, plugins: [{ id: "web" }] }],
    [":online, streamed", true, { model: `${model}:online`, stream: true }],
  ] as const) {
    it(`${how}: the provider's own search, its citations as annotations, each search priced`, async () => {
      const response = await chat(body);
      const id = response.headers.get("x-generation-id") ?? "";
      const answer = await answerOf(response, stream);
      const request = fake().requests(1)[0]?.body as Record<string, unknown>;
      sent(request);
      expect(request).not.toHaveProperty("plugins");
      expect(answer.annotations.length).toBeGreaterThan(0);
      for (const annotation of answer.annotations) {
        expect(annotation.type).toBe("url_citation");
        expect(annotation.url_citation.url).toMatch(/^https:\/\//);
        expect(annotation.url_citation.start_index).toBeLessThan(annotation.url_citation.end_index);
        cited(answer.text, annotation);
      }
      expect(answer.usage.cost - answer.usage.cost_details.upstream_inference_cost).toBeCloseTo(searchUsd, 9);
      expect(answer.usage.cost_details.upstream_inference_web_search_cost).toBeCloseTo(searchUsd, 12);
      const event = await usageEventFor(edge, id);
      expect(event.costPico - (event.upstreamPromptCostPico + event.upstreamCompletionCostPico)).toBe(
        BigInt(Math.round(searchUsd * 1e12)),
      );
      expect([event.webSearchEngine, event.numSearchResults]).toEqual(["native", 1]);
      expect(event.webSearchCostPico).toBe(BigInt(Math.round(searchUsd * 1e12)));
      const admit = edge.billing.admits.find((entry) => entry.holdId === id);
      const modelOnly = edge.billing.admits.find((entry) => entry.holdId === plainId);
      expect((admit?.worstCaseCostPico ?? 0n) - (modelOnly?.worstCaseCostPico ?? 0n)).toBe(heldPico);
    });
  }

  let plainId = "";
  beforeAll(async () => {
    // The same request without the plugin: its hold is the model's alone.
    const plain = await chat({ model });
    plainId = plain.headers.get("x-generation-id") ?? "";
    await plain.text();
  });
});

describe("native web search on the other surfaces", () => {
  it("/v1/messages to Anthropic: the caller's body gets the tool, and the answer's citations come back on its text blocks", async () => {
    const response = await fetch(`${edge.url}/v1/messages`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key.secret}`,
        "content-type": "application/json",
        "anthropic-version": "2023-06-01",
      },
      body: JSON.stringify({
        model: "anthropic/claude-search",
        max_tokens: 300,
        messages: [{ role: "user", content: QUESTION }],
        plugins: [{ id: "web", max_uses: 2 }],
      }),
    });
    expect(response.status).toBe(200);
    const sent = edge.anthropic.requests(1)[0]?.body as Record<string, unknown>;
    expect(sent.tools).toEqual([{ type: "web_search_20250305", name: "web_search", max_uses: 2 }]);
    expect(sent).not.toHaveProperty("plugins");
    // The answer travels in the canonical form: its text blocks and their web citations come back;
    // Anthropic's server_tool_use and web_search_tool_result blocks (and encrypted_index) do not.
    const body = (await response.json()) as {
      content: {
        type: string;
        text: string;
        citations?: { type: string; url: string; cited_text: string }[];
      }[];
    };
    const cited = body.content.find((block) => block.citations);
    expect(cited?.citations?.[0]).toMatchObject({
      type: "web_search_result_location",
      url: "https://search-1.example.com/what-happened-in-caf-land-today",
      cited_text: cited?.text,
    });
    expect(body.content[0]).toEqual({ type: "text", text: "Here is what I found. " });
  });

  it("generateContent to Gemini: the caller's body gets googleSearch, and Gemini's groundingMetadata comes back", async () => {
    const response = await fetch(`${edge.url}/v1beta/models/google/gemini-search:generateContent`, {
      method: "POST",
      headers: { "x-goog-api-key": key.secret, "content-type": "application/json" },
      body: JSON.stringify({
        contents: [{ role: "user", parts: [{ text: QUESTION }] }],
        plugins: [{ id: "web" }],
      }),
    });
    expect(response.status).toBe(200);
    const sent = edge.gemini.requests(1)[0]?.body as Record<string, unknown>;
    expect(sent.tools).toEqual([{ googleSearch: {} }]);
    const body = (await response.json()) as {
      candidates: { groundingMetadata?: { groundingChunks: unknown[] } }[];
    };
    expect(body.candidates[0]?.groundingMetadata?.groundingChunks.length).toBeGreaterThan(0);
  });

  it("/v1/messages to OpenAI's search model: its annotations become cited text blocks", async () => {
    const response = await fetch(`${edge.url}/v1/messages`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key.secret}`,
        "content-type": "application/json",
        "anthropic-version": "2023-06-01",
      },
      body: JSON.stringify({
        model: "openai/gpt-4o-search-preview",
        max_tokens: 300,
        messages: [{ role: "user", content: QUESTION }],
        plugins: [{ id: "web" }],
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      content: {
        type: string;
        text: string;
        citations?: { type: string; url: string; cited_text: string }[];
      }[];
    };
    const cited = body.content.find((block) => block.citations);
    expect(cited?.text).toMatch(/^\[search-1\.example\.com\]\(https:\/\/search-1\.example\.com\//);
    expect(cited?.citations?.[0]).toMatchObject({
      type: "web_search_result_location",
      cited_text: cited?.text,
    });
    expect(body.content.map((block) => block.text).join("")).toContain(cited?.text ?? "?");
  });

  it("streamed on /v1/messages (citations_delta) and streamGenerateContent (the last frame's groundingMetadata)", async () => {
    const messages = await fetch(`${edge.url}/v1/messages`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key.secret}`,
        "content-type": "application/json",
        "anthropic-version": "2023-06-01",
      },
      body: JSON.stringify({
        model: "anthropic/claude-search:online",
        max_tokens: 300,
        stream: true,
        messages: [{ role: "user", content: QUESTION }],
      }),
    });
    const events = (await messages.text())
      .split("\n\n")
      .flatMap((frame) => frame.split("\n").filter((line) => line.startsWith("data: ")))
      .map((line) => JSON.parse(line.slice(6)) as { delta?: { type: string; citation?: { url: string } } });
    const citation = events.find((event) => event.delta?.type === "citations_delta")?.delta?.citation;
    expect(citation?.url).toBe("https://search-1.example.com/what-happened-in-caf-land-today");
    const generated = await fetch(
      `${edge.url}/v1beta/models/google/gemini-search:streamGenerateContent?alt=sse`,
      {
        method: "POST",
        headers: { "x-goog-api-key": key.secret, "content-type": "application/json" },
        body: JSON.stringify({
          contents: [{ role: "user", parts: [{ text: QUESTION }] }],
          plugins: [{ id: "web" }],
        }),
      },
    );
    const frames = (await generated.text())
      .split(/\r?\n\r?\n/)
      .filter((frame) => frame.startsWith("data: "))
      .map(
        (frame) =>
          JSON.parse(frame.slice(6)) as {
            candidates: { groundingMetadata?: { groundingChunks: unknown[] } }[];
          },
      );
    expect(frames.at(-1)?.candidates[0]?.groundingMetadata?.groundingChunks.length).toBeGreaterThan(0);
  });
});

describe("native searches billed when the usage is estimated", () => {
  afterAll(() => {
    edge.anthropic.resetScenario();
    edge.gemini.resetScenario();
  });

  /** A streamed :online answer's usage chunk and its usage event. */
  async function streamedOnline(model: string) {
    const response = await chat({ model: `${model}:online`, stream: true });
    const id = response.headers.get("x-generation-id") ?? "";
    const usage = (await response.text())
      .split("\n\n")
      .filter((frame) => frame.startsWith("data: {"))
      .map((frame) => JSON.parse(frame.slice(6)) as { usage?: Usage & { estimated: boolean } })
      .findLast((chunk) => chunk.usage !== undefined)?.usage;
    return { usage, event: await usageEventFor(edge, id) };
  }

  const searchPico = (event: Awaited<ReturnType<typeof usageEventFor>>) =>
    event.costPico - (event.upstreamPromptCostPico + event.upstreamCompletionCostPico);

  it("Anthropic without usage: the searches its server_tool_use blocks showed", async () => {
    edge.anthropic.setScenario({ name: "no-usage", times: 1 });
    const { usage, event } = await streamedOnline("anthropic/claude-search");
    expect(usage?.estimated).toBe(true);
    expect(searchPico(event)).toBe(10_000_000_000n);
    expect([event.webSearchEngine, event.numSearchResults]).toEqual(["native", 1]);
  });

  it("Anthropic cut after the search was issued: that search", async () => {
    // message_start, then the server_tool_use block's start: the socket is destroyed there.
    edge.anthropic.setScenario({ name: "drop-mid-stream", after: 2, times: 1 });
    const { usage, event } = await streamedOnline("anthropic/claude-search");
    expect(usage?.estimated).toBe(true);
    expect(searchPico(event)).toBe(10_000_000_000n);
  });

  it("Gemini cut before its groundingMetadata: the search held for it (the worst case)", async () => {
    edge.gemini.setScenario({ name: "drop-mid-stream", after: 1, times: 1 });
    const { usage, event } = await streamedOnline("google/gemini-search");
    expect(usage?.estimated).toBe(true);
    expect(searchPico(event)).toBe(35_000_000_000n);
    expect([event.webSearchEngine, event.numSearchResults]).toEqual(["native", 1]);
  });
});
