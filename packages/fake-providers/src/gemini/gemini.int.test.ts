import { ApiError, GoogleGenAI, Type } from "@google/genai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { embedText } from "../core/embedding.js";
import type { FakeServer } from "../core/server.js";
import { startFakeGemini } from "./server.js";

const KEY = "AIza-fake-test-key";
let server: FakeServer;

beforeAll(async () => {
  server = await startFakeGemini({ apiKey: KEY });
});
afterAll(() => server.close());
beforeEach(() => {
  server.clearRequests();
  server.resetScenario();
});

function client(options: { apiKey?: string; scenario?: string; apiVersion?: string } = {}) {
  return new GoogleGenAI({
    apiKey: options.apiKey ?? KEY,
    httpOptions: {
      baseUrl: server.baseUrl,
      ...(options.apiVersion ? { apiVersion: options.apiVersion } : {}),
      ...(options.scenario ? { headers: { "x-fake-scenario": options.scenario } } : {}),
    },
  });
}

const model = "gemini-2.5-flash";

describe("generateContent through @google/genai", () => {
  it("parses text and usage metadata", async () => {
    const response = await client().models.generateContent({ model, contents: "Hello there" });
    expect(response.text).toBe("Echo: Hello there");
    expect(response.candidates?.[0]?.finishReason).toBe("STOP");
    expect(response.usageMetadata).toMatchObject({
      promptTokenCount: 3,
      candidatesTokenCount: 5,
      totalTokenCount: 8,
    });
    expect(response.modelVersion).toBe(model);
  });

  it("receives the key in x-goog-api-key, on /v1 (the SDK 3.x default) and /v1beta", async () => {
    await client().models.generateContent({ model, contents: "Hi" });
    await client({ apiVersion: "v1beta" }).models.generateContent({ model, contents: "Hi" });
    const [v1, v1beta] = server.requests();
    expect(v1?.path).toBe(`/v1/models/${model}:generateContent`);
    expect(v1beta?.path).toBe(`/v1beta/models/${model}:generateContent`);
    expect(v1?.headers["x-goog-api-key"]).toBe(KEY);
  });

  it("streams SSE chunks that join into the answer", async () => {
    const stream = await client().models.generateContentStream({ model, contents: "Hello there" });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.text).join("")).toBe("Echo: Hello there");
    expect(chunks.at(-1)?.candidates?.[0]?.finishReason).toBe("STOP");
    expect(chunks.at(-1)?.usageMetadata?.candidatesTokenCount).toBe(5);
    expect(server.requests()[0]?.path).toBe(`/v1/models/${model}:streamGenerateContent?alt=sse`);
  });

  it("calls a declared function when asked about the weather", async () => {
    const response = await client().models.generateContent({
      model,
      contents: "What is the weather in Lisbon?",
      config: {
        tools: [
          {
            functionDeclarations: [
              {
                name: "get_weather",
                parameters: {
                  type: Type.OBJECT,
                  properties: { city: { type: Type.STRING } },
                  required: ["city"],
                },
              },
            ],
          },
        ],
      },
    });
    expect(response.functionCalls).toEqual([{ name: "get_weather", args: { city: "Lisbon" } }]);
  });

  it("counts tokens", async () => {
    const result = await client().models.countTokens({ model, contents: "Hello there" });
    expect(result.totalTokens).toBe(3);
  });

  it("embeds through batchEmbedContents, with output dimensionality", async () => {
    const result = await client().models.embedContent({
      model: "text-embedding-004",
      contents: ["alpha", "beta"],
      config: { outputDimensionality: 64 },
    });
    expect(server.requests()[0]?.path).toBe("/v1/models/text-embedding-004:batchEmbedContents");
    expect(result.embeddings?.map((e) => e.values?.length)).toEqual([64, 64]);
    expect(result.embeddings?.[1]?.values).toEqual(embedText("beta", 64));
  });
});

describe("the Gemini wire format beyond the SDK", () => {
  it("accepts ?key= and answers embedContent with the native size", async () => {
    const response = await fetch(`${server.url}/v1beta/models/text-embedding-004:embedContent?key=${KEY}`, {
      method: "POST",
      body: JSON.stringify({ content: { parts: [{ text: "hello" }] } }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { embedding: { values: number[] } };
    expect(body.embedding.values).toHaveLength(768);
  });

  it("streams a JSON array without alt=sse", async () => {
    const response = await fetch(`${server.url}/v1beta/models/${model}:streamGenerateContent`, {
      method: "POST",
      headers: { "x-goog-api-key": KEY },
      body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "Hello there" }] }] }),
    });
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const chunks = JSON.parse(await response.text()) as {
      candidates: { content: { parts: { text: string }[] } }[];
    }[];
    expect(chunks.map((c) => c.candidates[0]?.content.parts[0]?.text).join("")).toBe("Echo: Hello there");
  });

  it("frames SSE as data: lines only, without [DONE]", async () => {
    const response = await fetch(`${server.url}/v1beta/models/${model}:streamGenerateContent?alt=sse`, {
      method: "POST",
      headers: { "x-goog-api-key": KEY },
      body: JSON.stringify({ contents: [{ parts: [{ text: "Hi" }] }] }),
    });
    const body = await response.text();
    expect(
      body
        .split("\r\n\r\n")
        .filter((f) => f !== "")
        .every((f) => f.startsWith("data: {")),
    ).toBe(true);
    expect(body).not.toContain("[DONE]");
    expect(body).not.toContain("event:");
  });

  it("refuses a missing key with PERMISSION_DENIED", async () => {
    const response = await fetch(`${server.url}/v1beta/models/${model}:generateContent`, {
      method: "POST",
      body: JSON.stringify({ contents: [{ parts: [{ text: "Hi" }] }] }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 403, status: "PERMISSION_DENIED" } });
  });
});

describe("failures @google/genai recognises", () => {
  it("raises ApiError 400 API_KEY_INVALID for a wrong key", async () => {
    const error = await client({ apiKey: "wrong" })
      .models.generateContent({ model, contents: "Hi" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toContain("API_KEY_INVALID");
  });

  it("raises ApiError with the scenario's status and the Google status name", async () => {
    for (const [scenario, status, name] of [
      ["fail;status=503", 503, "UNAVAILABLE"],
      ["rate-limit", 429, "RESOURCE_EXHAUSTED"],
      ["fail;status=500", 500, "INTERNAL"],
    ] as const) {
      const error = await client({ scenario })
        .models.generateContent({ model, contents: "Hi" })
        .catch((e: unknown) => e);
      expect(error, scenario).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(status);
      expect((error as ApiError).message).toContain(name);
    }
  });

  it("surfaces a stream dropped mid-way as an error", async () => {
    const stream = await client({ scenario: "drop-mid-stream;after=1" }).models.generateContentStream({
      model,
      contents: "one two three four",
    });
    const received: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) received.push(chunk.text ?? "");
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(received).toEqual(["Echo:"]);
  });

  it("omits usageMetadata under no-usage", async () => {
    const response = await client({ scenario: "no-usage" }).models.generateContent({ model, contents: "Hi" });
    expect(response.usageMetadata).toBeUndefined();
  });
});
