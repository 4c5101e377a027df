import { ApiError, FunctionCallingConfigMode, GoogleGenAI, type Tool } from "@google/genai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";
import { usageEventFor } from "../test/usage.js";

const key = testKey("acct-gemini");
let edge: EdgeHarness;
let client: GoogleGenAI;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key], env: { BODY_LIMIT: "64kb" }, settings: { keepAliveMs: 100 } });
  client = new GoogleGenAI({ apiKey: key.secret, httpOptions: { baseUrl: edge.url } });
});

afterAll(async () => {
  await edge?.stop();
});

beforeEach(() => {
  for (const fake of [edge.primary, edge.backup, edge.anthropic, edge.gemini]) {
    fake.resetScenario();
    fake.clearRequests();
  }
});

const weather: Tool = {
  functionDeclarations: [
    {
      name: "get_weather",
      description: "Current weather",
      parametersJsonSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  ],
};

const families = [
  { family: "Gemini", model: "gemini-test", id: "google/gemini-test" },
  { family: "Anthropic", model: "anthropic/claude-test", id: "anthropic/claude-test" },
  { family: "OpenAI", model: "openai/gpt-4o-mini", id: "openai/gpt-4o-mini" },
  { family: "OpenAI-compatible (groq)", model: "test/backup-only", id: "test/backup-only" },
];

describe.each(families)("@google/genai → generateContent → $family", ({ model, id }) => {
  it("generates content with usage metadata, metered as generate_content", async () => {
    const result = await client.models.generateContent({
      model,
      contents: "hello there",
      config: { systemInstruction: "Be terse.", maxOutputTokens: 200 },
    });
    expect(result.text).toBe("Echo: hello there");
    expect(result.candidates?.[0]?.finishReason).toBe("STOP");
    expect(result.modelVersion).toBe(id);
    expect(result.usageMetadata?.promptTokenCount).toBeGreaterThan(0);
    expect(result.usageMetadata?.candidatesTokenCount).toBeGreaterThan(0);
    const event = await usageEventFor(edge, result.responseId!);
    expect(event.apiType).toBe("generate_content");
    expect(event.model).toBe(id);
    expect(event.estimated).toBe(false);
  });

  it("streams text then a last frame with finishReason and usage", async () => {
    const stream = await client.models.generateContentStream({ model, contents: "stream please" });
    let text = "";
    let finish: string | undefined;
    let total: number | undefined;
    for await (const chunk of stream) {
      text += chunk.text ?? "";
      finish = chunk.candidates?.[0]?.finishReason ?? finish;
      total = chunk.usageMetadata?.totalTokenCount ?? total;
    }
    expect(text).toBe("Echo: stream please");
    expect(finish).toBe("STOP");
    expect(total).toBeGreaterThan(0);
  });

  it("calls a function and reads the function response back, streamed and not", async () => {
    const ask = { role: "user", parts: [{ text: "What is the weather in Rome?" }] };
    const first = await client.models.generateContent({
      model,
      contents: [ask],
      config: { tools: [weather] },
    });
    const call = first.functionCalls?.[0];
    expect(call).toMatchObject({ name: "get_weather", args: { city: "Rome" } });
    const stream = await client.models.generateContentStream({
      model,
      contents: [ask],
      config: {
        tools: [weather],
        toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } },
      },
    });
    const calls = [];
    for await (const chunk of stream) calls.push(...(chunk.functionCalls ?? []));
    expect(calls).toEqual([expect.objectContaining({ name: "get_weather", args: { city: "Rome" } })]);
    const second = await client.models.generateContent({
      model,
      config: { tools: [weather] },
      contents: [
        ask,
        first.candidates![0]!.content!,
        {
          role: "user",
          parts: [{ functionResponse: { id: call?.id, name: "get_weather", response: { temp: "21C" } } }],
        },
      ],
    });
    expect(second.text).toContain("21C");
  });
});

describe("Gemini surface details", () => {
  it("serves the v1beta paths, the JSON-array stream without alt=sse and countTokens", async () => {
    const beta = new GoogleGenAI({
      apiKey: key.secret,
      httpOptions: { baseUrl: edge.url, apiVersion: "v1beta" },
    });
    expect((await beta.models.generateContent({ model: "gemini-test", contents: "hi" })).text).toBe(
      "Echo: hi",
    );
    const response = await fetch(
      `${edge.url}/v1beta/models/gemini-test:streamGenerateContent?key=${key.secret}`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "array please" }] }] }),
      },
    );
    expect(response.headers.get("content-type")).toContain("application/json");
    const frames = (await response.json()) as { candidates: { content: { parts: { text?: string }[] } }[] }[];
    expect(
      frames
        .map((frame) => frame.candidates[0]?.content.parts.map((part) => part.text ?? "").join(""))
        .join(""),
    ).toBe("Echo: array please");
    const counted = await client.models.countTokens({
      model: "gemini-test",
      contents: "How many tokens is this?",
    });
    expect(counted.totalTokens).toBeGreaterThan(3);
    // Two generations above; counting itself calls no provider.
    expect(edge.gemini.requests()).toHaveLength(2);
  });

  it("answers bad input in Gemini's error shape", async () => {
    const raw = (path: string, body: string) =>
      fetch(`${edge.url}${path}`, {
        method: "POST",
        headers: { "x-goog-api-key": key.secret, "content-type": "application/json" },
        body,
      });
    const missing = await raw("/v1beta/models/gemini-test:generateContent", JSON.stringify({ contents: [] }));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
    const malformed = await raw("/v1beta/models/gemini-test:generateContent", "{nope");
    expect(await malformed.json()).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
    const big = await raw(
      "/v1beta/models/gemini-test:generateContent",
      JSON.stringify({ contents: [{ parts: [{ text: "x".repeat(70_000) }] }] }),
    );
    expect(big.status).toBe(413);
    const unknownMethod = await raw("/v1beta/models/gemini-test:frobnicate", "{}");
    expect(unknownMethod.status).toBe(404);
    expect(await unknownMethod.json()).toMatchObject({ error: { code: 404, status: "NOT_FOUND" } });
    const unknown = await client.models
      .generateContent({ model: "no-such-model", contents: "x" })
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(ApiError);
    expect((unknown as ApiError).status).toBe(404);
    const stranger = new GoogleGenAI({ apiKey: "lr_live_nope", httpOptions: { baseUrl: edge.url } });
    const denied = await stranger.models
      .generateContent({ model: "gemini-test", contents: "x" })
      .catch((e: unknown) => e);
    expect((denied as ApiError).status).toBe(401);
  });

  it("refuses parts it cannot translate with a 400 naming them", async () => {
    const error = await client.models
      .generateContent({
        model: "openai/gpt-4o-mini",
        contents: [
          { role: "user", parts: [{ fileData: { fileUri: "gs://x/y.pdf", mimeType: "application/pdf" } }] },
        ],
      })
      .catch((caught: unknown) => caught);
    expect((error as ApiError).status).toBe(400);
    // A file in Google's storage is set aside by path: only a Gemini endpoint may receive it (issue 32).
    expect((error as Error).message).toMatch(/contents\[0\]\.parts\[0\]\.fileData: only gemini's own API/);
  });
});
