import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic } from "./anthropic/server.js";
import type { FakeServer } from "./core/server.js";
import { startFakeGemini } from "./gemini/server.js";
import { startFakeOpenAi } from "./openai/server.js";

// Each provider's own web search as the fakes speak it (anthropic/web-search.ts, gemini/grounding.ts,
// openai/web-search.ts cite the docs): the real tool shapes accepted, wrong ones refused with the real
// error, the real answer shapes, streamed too.

const KEY = "sk-web-test";
let openai: FakeServer;
let anthropic: FakeServer;
let gemini: FakeServer;

beforeAll(async () => {
  [openai, anthropic, gemini] = await Promise.all([
    startFakeOpenAi({ apiKey: KEY }),
    startFakeAnthropic({ apiKey: KEY }),
    startFakeGemini({ apiKey: KEY }),
  ]);
});
afterAll(() => Promise.all([openai, anthropic, gemini].map((server) => server.close())));

const post = (url: string, body: unknown, headers: Record<string, string>) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const messages = (body: Record<string, unknown>) =>
  post(
    `${anthropic.url}/v1/messages`,
    {
      model: "claude-sonnet-4-20250514",
      max_tokens: 200,
      messages: [{ role: "user", content: "latest news" }],
      ...body,
    },
    { "x-api-key": KEY, "anthropic-version": "2023-06-01" },
  );
const generate = (body: Record<string, unknown>, action = "generateContent") =>
  post(
    `${gemini.url}/v1beta/models/gemini-2.5-flash:${action}`,
    { contents: [{ role: "user", parts: [{ text: "Who won? Café results" }] }], ...body },
    { "x-goog-api-key": KEY },
  );
const chat = (body: Record<string, unknown>) =>
  post(
    `${openai.baseUrl}/chat/completions`,
    { model: "gpt-4o-search-preview", messages: [{ role: "user", content: "latest news" }], ...body },
    { authorization: `Bearer ${KEY}` },
  );
const WEB_SEARCH = { type: "web_search_20250305", name: "web_search", max_uses: 3 };

type Json = Record<string, unknown>;
const sseData = async (response: Response): Promise<Json[]> =>
  (await response.text())
    .split(/\r?\n\r?\n/)
    .flatMap((frame) => frame.split("\n").filter((line) => line.startsWith("data: ")))
    .filter((line) => line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice(6)) as Json);

describe("fake Anthropic: the web search tool", () => {
  it("answers with the search, its results, cited text and the searches in usage", async () => {
    const response = await messages({ tools: [WEB_SEARCH] });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { content: Json[]; usage: Json };
    expect(body.content.map((block) => block.type)).toEqual([
      "server_tool_use",
      "web_search_tool_result",
      "text",
      "text",
    ]);
    expect(body.content[0]).toMatchObject({ name: "web_search", input: { query: "latest news" } });
    expect(body.content[1]).toMatchObject({ tool_use_id: body.content[0]?.id });
    const cited = body.content[3] as { citations: Json[] };
    expect(cited.citations[0]).toMatchObject({
      type: "web_search_result_location",
      url: "https://search-1.example.com/latest-news",
    });
    expect(body.usage.server_tool_use).toEqual({ web_search_requests: 1 });
  });

  it("streams the citations as citations_delta before the block's text, and the searches in message_delta", async () => {
    const events = await sseData(await messages({ tools: [WEB_SEARCH], stream: true }));
    const types = events.map((event) =>
      event.type === "content_block_delta"
        ? `delta:${String((event.delta as Json).type)}`
        : String(event.type),
    );
    expect(types.indexOf("delta:citations_delta")).toBeLessThan(types.lastIndexOf("delta:text_delta"));
    expect(types).toContain("delta:input_json_delta");
    const last = events.find((event) => event.type === "message_delta") as { usage: Json };
    expect(last.usage.server_tool_use).toEqual({ web_search_requests: 1 });
  });

  it("refuses a wrong tool shape with the API's 400", async () => {
    const cases: [Json, string][] = [
      [{ ...WEB_SEARCH, name: "search" }, "tools.0.web_search_20250305.name: Input should be 'web_search'"],
      [{ ...WEB_SEARCH, query: "x" }, "tools.0.web_search_20250305.query: Extra inputs are not permitted"],
      [
        { type: "web_search_2025", name: "web_search" },
        "tools.0: Input tag 'web_search_2025' found using 'type'",
      ],
      [{ ...WEB_SEARCH, max_uses: 0 }, "tools.0.web_search_20250305.max_uses"],
    ];
    for (const [tool, message] of cases) {
      const response = await messages({ tools: [tool] });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { type: string; error: { type: string; message: string } };
      expect(body.type).toBe("error");
      expect(body.error.type).toBe("invalid_request_error");
      expect(body.error.message).toContain(message);
    }
  });
});

describe("fake Gemini: Google Search grounding", () => {
  it("grounds the answer: groundingMetadata with chunks and byte-indexed supports, search tokens in usage", async () => {
    const response = await generate({ tools: [{ googleSearch: {} }] });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      candidates: { content: { parts: { text: string }[] }; groundingMetadata: Json }[];
      usageMetadata: Json;
    };
    const [candidate] = body.candidates;
    const text = candidate?.content.parts[0]?.text ?? "";
    const grounding = candidate?.groundingMetadata as {
      webSearchQueries: string[];
      groundingChunks: { web: { uri: string; title: string } }[];
      groundingSupports: { segment: { startIndex?: number; endIndex: number; text: string } }[];
    };
    expect(grounding.webSearchQueries).toEqual(["Who won? Café results"]);
    expect(grounding.groundingChunks[0]?.web.uri).toMatch(/^https:\/\/vertexaisearch\.cloud\.google\.com\//);
    for (const { segment } of grounding.groundingSupports)
      expect(
        Buffer.from(text, "utf8")
          .subarray(segment.startIndex ?? 0, segment.endIndex)
          .toString(),
      ).toBe(segment.text);
    expect(body.usageMetadata.toolUsePromptTokenCount).toBeGreaterThan(0);
    const plain = (await (await generate({})).json()) as { candidates: Json[] };
    expect(plain.candidates[0]).not.toHaveProperty("groundingMetadata");
  });

  it("streams the grounding on the last chunk only", async () => {
    const chunks = await sseData(
      await generate({ tools: [{ google_search: {} }] }, "streamGenerateContent?alt=sse"),
    );
    const grounded = chunks.map((chunk) => (chunk.candidates as Json[])[0]?.groundingMetadata !== undefined);
    expect(grounded.at(-1)).toBe(true);
    expect(grounded.slice(0, -1).every((value) => !value)).toBe(true);
  });

  it("refuses the legacy retrieval tool and unknown googleSearch fields with the API's 400", async () => {
    const legacy = await generate({ tools: [{ googleSearchRetrieval: {} }] });
    expect(legacy.status).toBe(400);
    expect(((await legacy.json()) as { error: { status: string; message: string } }).error).toMatchObject({
      status: "INVALID_ARGUMENT",
      message: expect.stringContaining("google_search_retrieval is not supported"),
    });
    const unknown = await generate({ tools: [{ googleSearch: { maxResults: 3 } }] });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain(
      'Unknown name "maxResults"',
    );
  });
});

describe("fake OpenAI: web_search_options on the search models", () => {
  it("answers with a linked source and its url_citation annotation", async () => {
    const response = await chat({ web_search_options: { search_context_size: "medium" } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      choices: { message: { content: string; annotations: { url_citation: Json }[] } }[];
    };
    const message = body.choices[0]?.message;
    const citation = message?.annotations[0]?.url_citation as {
      start_index: number;
      end_index: number;
      url: string;
    };
    expect(message?.content.slice(citation.start_index, citation.end_index)).toBe(
      `[search-1.example.com](${citation.url})`,
    );
  });

  it("streams the annotations in a delta after the text", async () => {
    const chunks = await sseData(await chat({ web_search_options: {}, stream: true }));
    const deltas = chunks.flatMap((chunk) =>
      (chunk.choices as { delta: Json }[]).map((choice) => choice.delta),
    );
    const at = deltas.findIndex((delta) => delta.annotations !== undefined);
    expect(at).toBeGreaterThan(
      deltas.findLastIndex((delta) => typeof delta.content === "string" && delta.content !== ""),
    );
  });

  it("refuses web_search_options on other models, a bad context size, and sampling on a search model", async () => {
    const cases: [Json, string, string][] = [
      [
        { model: "gpt-4o-mini", web_search_options: {} },
        "Web search options not supported with this model.",
        "web_search_options",
      ],
      [
        { web_search_options: { search_context_size: "huge" } },
        "Invalid value: 'huge'.",
        "web_search_options.search_context_size",
      ],
      [
        { web_search_options: {}, temperature: 0.2 },
        "Model incompatible request argument supplied: temperature",
        "temperature",
      ],
    ];
    for (const [body, message, param] of cases) {
      const response = await chat(body);
      expect(response.status).toBe(400);
      const error = ((await response.json()) as { error: { message: string; param: string; type: string } })
        .error;
      expect(error.message).toContain(message);
      expect(error.param).toBe(param);
      expect(error.type).toBe("invalid_request_error");
    }
  });
});
