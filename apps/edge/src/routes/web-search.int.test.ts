import { type FakeServer, startFakeExa } from "@gw/fake-providers";
import { RefusalCode } from "@gw/proto/billing/v1/billing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { webPromptAllowanceTokens } from "../pipeline/web-served.js";
import { refusal } from "../test/billing.js";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { readError } from "../test/http.js";
import { testKey } from "../test/principals.js";
import { usageEventFor } from "../test/usage.js";

// The web plugin (and `:online`) served with an operator's Exa-compatible search API: the search runs
// before planning, its results go into the prompt as OpenRouter's system message, the answer's citations
// come back as `annotations`, and the results are priced ($4 per 1,000) on top of the model.

const EXA_KEY = "exa-operator-key";
const key = testKey("acct-web");
let exa: FakeServer;
let edge: EdgeHarness;

beforeAll(async () => {
  exa = await startFakeExa({ apiKey: EXA_KEY });
  edge = await startEdgeHarness({
    keys: [key],
    env: { WEB_SEARCH_URL: exa.baseUrl, WEB_SEARCH_API_KEY: EXA_KEY, WEB_SEARCH_TIMEOUT_MS: "500" },
  });
});

afterAll(async () => {
  await edge?.stop();
  await exa?.close();
});

beforeEach(() => {
  for (const fake of [edge.primary, edge.anthropic, exa]) {
    fake.resetScenario();
    fake.clearRequests();
  }
});

const MODEL = "openai/gpt-4o-mini";
// The fake model echoes the last user text, so this question makes its answer cite result 2.
const CITING = "What is new? See [result-2.example.org](https://result-2.example.org/)";

function chat(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${edge.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
    body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: CITING }], ...body }),
  });
}

interface Sent {
  messages: Array<{ role: string; content: string }>;
  model: string;
}

describe("the web plugin with a search provider configured", () => {
  it("searches the last user message with the operator's key and max_results", async () => {
    const response = await chat({ plugins: [{ id: "web", max_results: 3 }] });
    expect(response.status).toBe(200);
    const [search] = exa.requests(1);
    expect(search?.headers["x-api-key"]).toBe(EXA_KEY);
    expect(search?.body).toEqual({
      query: CITING,
      numResults: 3,
      contents: { text: { maxCharacters: 1_000 } },
    });
  });

  it("gives the results to the model as a system message before the user's, with OpenRouter's prompt", async () => {
    await chat({ plugins: [{ id: "web" }] });
    const sent = edge.primary.requests(1)[0]?.body as Sent;
    expect(sent.messages.map((message) => message.role)).toEqual(["system", "user"]);
    const system = sent.messages[0]?.content ?? "";
    expect(system).toMatch(/^A web search was conducted on \d{4}-\d{2}-\d{2}\. Incorporate/);
    expect(system).toContain("Cite them using markdown links named using the domain of the source.");
    // The default five results, each a markdown link to its URL.
    for (const n of [1, 2, 3, 4, 5]) expect(system).toContain(`(https://result-${n}.example.org/)`);
    expect(system).not.toContain("result-6.example.org");
    expect(sent).not.toHaveProperty("plugins");
  });

  it("uses the plugin's search_prompt instead of the default", async () => {
    await chat({ plugins: [{ id: "web", search_prompt: "Sources found:", max_results: 1 }] });
    const sent = edge.primary.requests(1)[0]?.body as Sent;
    expect(sent.messages[0]?.content.startsWith("Sources found:\n\n[1] [Result 1")).toBe(true);
  });

  it("returns the cited results as url_citation annotations on the assistant message", async () => {
    const body = (await (await chat({ plugins: [{ id: "web" }] })).json()) as {
      choices: Array<{ message: { content: string; annotations?: unknown[] } }>;
    };
    const message = body.choices[0]?.message;
    const link = "[result-2.example.org](https://result-2.example.org/)";
    const start = message?.content.indexOf(link) ?? -1;
    expect(start).toBeGreaterThan(0);
    expect(message?.annotations).toEqual([
      {
        type: "url_citation",
        url_citation: {
          url: "https://result-2.example.org/",
          title: `Result 2: ${CITING}`.slice(0, 120),
          content: expect.stringContaining("Result 2 about"),
          start_index: start,
          end_index: start + link.length,
        },
      },
    ]);
  });

  it("streams the citations in a chunk after the content, before the usage chunk", async () => {
    const response = await chat({ plugins: [{ id: "web" }], stream: true });
    expect(response.status).toBe(200);
    const chunks = (await response.text())
      .split("\n\n")
      .filter((frame) => frame.startsWith("data: {"))
      .map((frame) => JSON.parse(frame.slice(6)) as { choices: Array<{ delta: Record<string, unknown> }> });
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    const cited = chunks.findIndex((chunk) => chunk.choices[0]?.delta.annotations !== undefined);
    expect(cited).toBe(chunks.length - 2);
    const link = "[result-2.example.org](https://result-2.example.org/)";
    expect(chunks[cited]?.choices[0]?.delta.annotations).toEqual([
      {
        type: "url_citation",
        url_citation: expect.objectContaining({
          url: "https://result-2.example.org/",
          start_index: text.indexOf(link),
          end_index: text.indexOf(link) + link.length,
        }),
      },
    ]);
  });

  it("prices the results at $4 per 1,000 on top of the model, in usage.cost and the usage event", async () => {
    const plain = await chat({});
    const plainBody = (await plain.json()) as { usage: { cost: number } };
    const searched = await chat({ plugins: [{ id: "web", max_results: 4 }] });
    const body = (await searched.json()) as {
      usage: {
        cost: number;
        prompt_tokens: number;
        cost_details: { upstream_inference_cost: number; upstream_inference_web_search_cost?: number };
      };
    };
    // The model's part (its prompt now holds the results) plus 4 results × $0.004, shown as the search's part.
    expect(body.usage.cost).toBeCloseTo(body.usage.cost_details.upstream_inference_cost + 0.016, 9);
    expect(body.usage.cost_details.upstream_inference_web_search_cost).toBeCloseTo(0.016, 12);
    expect(body.usage.cost).toBeGreaterThan(plainBody.usage.cost + 0.016);
    const event = await usageEventFor(edge, searched.headers.get("x-generation-id") ?? "");
    expect(event.costPico - (event.upstreamPromptCostPico + event.upstreamCompletionCostPico)).toBe(
      16_000_000_000n,
    );
    expect([event.webSearchEngine, event.numSearchResults]).toEqual(["exa", 4]);
    expect(event.webSearchCostPico).toBe(16_000_000_000n);
  });

  it("searches only once admitted: a caller who cannot pay gets 402 and the search provider is never asked", async () => {
    edge.billing.refusal = refusal(RefusalCode.REFUSAL_CODE_INSUFFICIENT_CREDITS, { limitSource: "account" });
    try {
      const response = await chat({ plugins: [{ id: "web" }] });
      expect(response.status).toBe(402);
      expect(exa.requests()).toHaveLength(0);
      expect(edge.primary.requests()).toHaveLength(0);
    } finally {
      edge.billing.refusal = undefined;
    }
  });

  it("holds max_results × the result price, and the results' prompt at its most, before the search runs", async () => {
    const holdOf = async (body: Record<string, unknown>) => {
      const response = await chat({ max_tokens: 10, ...body });
      const id = response.headers.get("x-generation-id");
      return edge.billing.admits.find((admit) => admit.holdId === id)?.worstCaseCostPico ?? 0n;
    };
    const plain = await holdOf({});
    const searched = await holdOf({ plugins: [{ id: "web", max_results: 25 }] });
    // 25 × $0.004 = 10¹¹ pico for the results, plus the prompt they may add (every result at its cap) at
    // gpt-4o-mini's $0.15 per million prompt tokens (150,000 pico a token) here.
    const allowance =
      BigInt(
        webPromptAllowanceTokens({
          maxResults: 25,
          searchPrompt: undefined,
          includeDomains: undefined,
          excludeDomains: undefined,
        }),
      ) * 150_000n;
    expect(searched - plain).toBe(100_000_000_000n + allowance);
  });

  it(":online is the web plugin on the model without the suffix", async () => {
    const response = await chat({ model: `${MODEL}:online` });
    expect(response.status).toBe(200);
    expect(exa.requests()).toHaveLength(1);
    const sent = edge.primary.requests(1)[0]?.body as Sent;
    expect(sent.model).toBe("gpt-4o-mini");
    expect(sent.messages[0]?.content).toContain("A web search was conducted on");
    expect(((await response.json()) as { model: string }).model).toBe(MODEL);
  });

  it("serves the plugin on the Anthropic Messages surface too: the results reach the model as system text", async () => {
    const response = await fetch(`${edge.url}/v1/messages`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key.secret}`,
        "content-type": "application/json",
        "anthropic-version": "2023-06-01",
      },
      body: JSON.stringify({
        model: "anthropic/claude-test",
        max_tokens: 50,
        messages: [{ role: "user", content: "what is new?" }],
        plugins: [{ id: "web", max_results: 2 }],
      }),
    });
    expect(response.status).toBe(200);
    expect((exa.requests(1)[0]?.body as { query?: string } | undefined)?.query).toBe("what is new?");
    const sent = edge.anthropic.requests(1)[0]?.body as { system?: unknown; plugins?: unknown };
    expect(JSON.stringify(sent.system)).toContain("(https://result-2.example.org/)");
    expect(sent).not.toHaveProperty("plugins");
  });

  it("cites the results on the other surfaces: Anthropic text-block citations, Gemini groundingMetadata", async () => {
    const link = "[result-2.example.org](https://result-2.example.org/)";
    const messages = await fetch(`${edge.url}/v1/messages`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key.secret}`,
        "content-type": "application/json",
        "anthropic-version": "2023-06-01",
      },
      body: JSON.stringify({
        model: MODEL,
        max_tokens: 200,
        messages: [{ role: "user", content: CITING }],
        plugins: [{ id: "web" }],
      }),
    });
    const message = (await messages.json()) as {
      content: { text: string; citations?: Record<string, unknown>[] }[];
    };
    const cited = message.content.filter((block) => block.citations);
    expect(cited.map((block) => block.text)).toEqual([link]);
    expect(cited[0]?.citations).toEqual([
      {
        type: "web_search_result_location",
        url: "https://result-2.example.org/",
        title: expect.stringContaining("Result 2"),
        cited_text: link,
        encrypted_index: "",
      },
    ]);
    const generated = await fetch(`${edge.url}/v1beta/models/${MODEL}:generateContent`, {
      method: "POST",
      headers: { "x-goog-api-key": key.secret, "content-type": "application/json" },
      body: JSON.stringify({
        contents: [{ role: "user", parts: [{ text: CITING }] }],
        plugins: [{ id: "web" }],
      }),
    });
    const body = (await generated.json()) as {
      candidates: {
        content: { parts: { text: string }[] };
        groundingMetadata: {
          groundingChunks: { web: { uri: string } }[];
          groundingSupports: {
            segment: { startIndex: number; endIndex: number; text: string };
            groundingChunkIndices: number[];
          }[];
        };
      }[];
    };
    const candidate = body.candidates[0];
    const text = candidate?.content.parts.map((part) => part.text).join("") ?? "";
    expect(candidate?.groundingMetadata.groundingChunks).toEqual([
      { web: { uri: "https://result-2.example.org/", title: expect.stringContaining("Result 2") } },
    ]);
    const [support] = candidate?.groundingMetadata.groundingSupports ?? [];
    expect(support?.segment.text).toBe(link);
    expect(
      Buffer.from(text).subarray(support?.segment.startIndex, support?.segment.endIndex).toString(),
    ).toBe(link);
    expect(support?.groundingChunkIndices).toEqual([0]);
  });

  it("streams the citations on the other surfaces: Anthropic citations_delta, Gemini's last frame grounded", async () => {
    const link = "[result-2.example.org](https://result-2.example.org/)";
    const messages = await fetch(`${edge.url}/v1/messages`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key.secret}`,
        "content-type": "application/json",
        "anthropic-version": "2023-06-01",
      },
      body: JSON.stringify({
        model: MODEL,
        max_tokens: 200,
        stream: true,
        messages: [{ role: "user", content: CITING }],
        plugins: [{ id: "web" }],
      }),
    });
    const events = (await messages.text())
      .split("\n\n")
      .flatMap((frame) => frame.split("\n").filter((line) => line.startsWith("data: ")))
      .map(
        (line) => JSON.parse(line.slice(6)) as { type: string; delta?: { type: string; citation?: unknown } },
      );
    const citations = events.filter((event) => event.delta?.type === "citations_delta");
    expect(citations.map((event) => event.delta?.citation)).toEqual([
      expect.objectContaining({
        type: "web_search_result_location",
        url: "https://result-2.example.org/",
        cited_text: link,
      }),
    ]);
    expect(events.findIndex((event) => event.delta?.type === "citations_delta")).toBeLessThan(
      events.findIndex((event) => event.type === "message_delta"),
    );
    const generated = await fetch(`${edge.url}/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`, {
      method: "POST",
      headers: { "x-goog-api-key": key.secret, "content-type": "application/json" },
      body: JSON.stringify({
        contents: [{ role: "user", parts: [{ text: CITING }] }],
        plugins: [{ id: "web" }],
      }),
    });
    const frames = (await generated.text())
      .split(/\r?\n\r?\n/)
      .filter((frame) => frame.startsWith("data: "))
      .map(
        (frame) =>
          JSON.parse(frame.slice(6)) as {
            candidates: { groundingMetadata?: { groundingSupports: { segment: { text: string } }[] } }[];
          },
      );
    const grounded = frames.map((frame) => frame.candidates[0]?.groundingMetadata);
    expect(grounded.slice(0, -1).every((value) => value === undefined)).toBe(true);
    expect(grounded.at(-1)?.groundingSupports.map((support) => support.segment.text)).toEqual([link]);
  });

  it("cites the results on the Responses API as output_text url_citation annotations", async () => {
    const link = "[result-2.example.org](https://result-2.example.org/)";
    const response = await fetch(`${edge.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL, input: CITING, plugins: [{ id: "web" }] }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      output: {
        type: string;
        content?: { type: string; text: string; annotations: Record<string, unknown>[] }[];
      }[];
    };
    const part = body.output.find((item) => item.type === "message")?.content?.[0];
    const start = part?.text.indexOf(link) ?? -1;
    expect(start).toBeGreaterThan(0);
    expect(part?.annotations).toEqual([
      {
        type: "url_citation",
        start_index: start,
        end_index: start + link.length,
        url: "https://result-2.example.org/",
        title: expect.stringContaining("Result 2"),
      },
    ]);
  });

  it("streams them on the Responses API: output_text.annotation.added, and on the completed response", async () => {
    const link = "[result-2.example.org](https://result-2.example.org/)";
    const response = await fetch(`${edge.url}/v1/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ model: MODEL, input: CITING, stream: true, plugins: [{ id: "web" }] }),
    });
    const events = (await response.text())
      .split("\n\n")
      .flatMap((frame) => frame.split("\n").filter((line) => line.startsWith("data: ")))
      .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
    const text = events
      .filter((event) => event.type === "response.output_text.delta")
      .map((event) => event.delta)
      .join("");
    const start = text.indexOf(link);
    const citation = {
      type: "url_citation",
      start_index: start,
      end_index: start + link.length,
      url: "https://result-2.example.org/",
      title: expect.stringContaining("Result 2"),
    };
    const added = events.filter((event) => event.type === "response.output_text.annotation.added");
    expect(added).toEqual([
      expect.objectContaining({ annotation_index: 0, content_index: 0, annotation: citation }),
    ]);
    const completed = events.find((event) => event.type === "response.completed") as {
      response: { output: { type: string; content?: { annotations: unknown[] }[] }[] };
    };
    const message = completed.response.output.find((item) => item.type === "message");
    expect(message?.content?.[0]?.annotations).toEqual([citation]);
  });

  it("a failing search is a 502 naming the search provider, and no model is called", async () => {
    exa.setScenario({ name: "fail", status: 500 });
    const error = await readError(await chat({ plugins: [{ id: "web" }] }));
    expect(error.status).toBe(502);
    expect(error.message).toContain("web plugin: the search provider answered HTTP 500");
    expect(error.reason).toBe("web_search_failed");
    expect(edge.primary.requests()).toHaveLength(0);
  });

  // The rule for a search whose answer never came: the caller is charged nothing for it. The gateway
  // paid the search provider, but every attempt failed on the providers' side, not the caller's, and
  // OpenRouter bills no failed request; charging a search with no answer to show for it would bill the
  // caller for our upstreams' outage. (A caller who cancels once a provider has the request is charged
  // for the search with the prompt it was sent, as the provider's work is: finish-generation.ts.)
  it("a search whose every model attempt failed is not charged: the usage event costs 0", async () => {
    edge.primary.setScenario({ name: "fail", status: 500 });
    const response = await chat({ plugins: [{ id: "web", max_results: 3 }] });
    expect(response.status).toBeGreaterThanOrEqual(500);
    const id = response.headers.get("x-generation-id") ?? "";
    expect(exa.requests()).toHaveLength(1);
    const event = await usageEventFor(edge, id);
    expect(event.costPico).toBe(0n);
    expect([event.webSearchEngine, event.numSearchResults]).toEqual(["", 0]);
    expect(event.finishReason).toBe("error");
  });

  it("a search that does not answer in time is a 502 too", async () => {
    exa.setScenario({ name: "hang" });
    const error = await readError(await chat({ plugins: [{ id: "web" }] }));
    expect(error.status).toBe(502);
    expect(error.message).toContain("did not answer within 500 ms");
    expect(edge.primary.requests()).toHaveLength(0);
  });

  it("refuses native search where the plan has none, and the options it cannot serve, by name", async () => {
    for (const [plugin, field, message] of [
      [{ id: "web", engine: "native" }, "plugins[0]", "offers the provider's own web search"],
      [{ id: "web", max_uses: 2 }, "plugins[0]", "offers the provider's own web search"],
      [{ id: "web", engine: "exa", max_uses: 2 }, "plugins[0].max_uses", "native web search only"],
      [{ id: "web", user_location: { country: "US" } }, "plugins[0].user_location", "is not offered"],
    ] as const) {
      const error = await readError(await chat({ plugins: [plugin] }));
      expect(error.status).toBe(400);
      expect(error.metadata?.field).toBe(field);
      expect(error.message).toContain(message);
    }
    expect(exa.requests()).toHaveLength(0);
    expect(edge.primary.requests()).toHaveLength(0);
  });
});
