import { GoogleGenAI } from "@google/genai";
import type { ProviderCredential } from "@gw/proto/keys/v1/keys";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BYOK_FAKE_KEY, type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { readError } from "../test/http.js";
import { testKey } from "../test/principals.js";
import { usageEventFor } from "../test/usage.js";

const key = testKey("acct-embed");
const byokKey = testKey("acct-embed-byok");
// The BYOK account brings its own groq key (the fake accepts the harness key).
const credentials = new Map<string, ProviderCredential[]>([
  ["acct-embed-byok", [{ id: "byok_g", providerId: "groq", apiKey: BYOK_FAKE_KEY, position: 0 }]],
]);
let edge: EdgeHarness;
let openai: OpenAI;
let genai: GoogleGenAI;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key, byokKey], credentials, env: { BODY_LIMIT: "64kb" } });
  openai = new OpenAI({ apiKey: key.secret, baseURL: `${edge.url}/v1`, maxRetries: 0 });
  genai = new GoogleGenAI({ apiKey: key.secret, httpOptions: { baseUrl: edge.url } });
});

afterAll(async () => {
  await edge?.stop();
});

beforeEach(() => {
  for (const fake of [edge.primary, edge.backup, edge.gemini]) {
    fake.resetScenario();
    fake.clearRequests();
  }
});

const families = [
  { family: "OpenAI", model: "test/embed", size: 1536, estimated: false },
  { family: "Gemini", model: "google/embed-test", size: 768, estimated: true },
  { family: "OpenAI-compatible (groq)", model: "test/embed-compat", size: 1536, estimated: false },
];

describe.each(families)("openai SDK → /v1/embeddings → $family", ({ model, size, estimated }) => {
  it("embeds an array with the SDK's default base64 encoding, metered as embeddings", async () => {
    const { data, response } = await openai.embeddings
      .create({ model, input: ["first text", "second text"] })
      .withResponse();
    expect(data.data.map((entry) => entry.index)).toEqual([0, 1]);
    expect(data.data[0]?.embedding).toHaveLength(size);
    expect(data.data[0]?.embedding).not.toEqual(data.data[1]?.embedding);
    expect(data.usage.prompt_tokens).toBeGreaterThan(0);
    const event = await usageEventFor(edge, response.headers.get("x-generation-id")!);
    expect(event.apiType).toBe("embeddings");
    expect(event.estimated).toBe(estimated);
    expect(event.promptTokens).toBe(data.usage.prompt_tokens);
    expect(event.completionTokens).toBe(0);
  });

  it("returns floats for a string with encoding_format float and honours dimensions", async () => {
    const floats = await openai.embeddings.create({
      model,
      input: "one text",
      encoding_format: "float",
      dimensions: 64,
    });
    expect(floats.data).toHaveLength(1);
    expect(floats.data[0]?.embedding).toHaveLength(64);
    const base64 = await openai.embeddings.create({ model, input: "one text", dimensions: 64 });
    // The SDK decoded our base64 float32 bytes into the same vector (to float32 precision).
    for (const [index, value] of (floats.data[0]?.embedding ?? []).entries())
      expect(base64.data[0]?.embedding[index]).toBeCloseTo(value, 5);
  });
});

describe("embedding details", () => {
  it("serves an account's own provider key first (BYOK) and says so", async () => {
    const own = new OpenAI({ apiKey: byokKey.secret, baseURL: `${edge.url}/v1`, maxRetries: 0 });
    const { data, response } = await own.embeddings
      .create({ model: "test/embed-compat", input: "mine" })
      .withResponse();
    expect((data.usage as unknown as { is_byok: boolean }).is_byok).toBe(true);
    expect(edge.backup.requests().at(-1)?.headers.authorization).toBe(`Bearer ${BYOK_FAKE_KEY}`);
    expect((await usageEventFor(edge, response.headers.get("x-generation-id")!)).isByok).toBe(true);
  });

  it("serves Gemini's embedContent and batchEmbedContents through @google/genai", async () => {
    const result = await genai.models.embedContent({ model: "embed-test", contents: ["alpha", "beta"] });
    expect(result.embeddings).toHaveLength(2);
    expect(result.embeddings?.[0]?.values).toHaveLength(768);
    const single = await fetch(`${edge.url}/v1beta/models/embed-test:embedContent`, {
      method: "POST",
      headers: { "x-goog-api-key": key.secret, "content-type": "application/json" },
      body: JSON.stringify({ content: { parts: [{ text: "alpha" }] }, outputDimensionality: 8 }),
    });
    expect(((await single.json()) as { embedding: { values: number[] } }).embedding.values).toHaveLength(8);
    const openaiFromGemini = await genai.models.embedContent({ model: "test/embed", contents: "alpha" });
    expect(openaiFromGemini.embeddings?.[0]?.values).toHaveLength(1536);
  });

  it("answers bad input, chat models and providers without embeddings clearly", async () => {
    const post = (body: unknown) =>
      fetch(`${edge.url}/v1/embeddings`, {
        method: "POST",
        headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect(await readError(await post({ model: "test/embed", input: [] }))).toMatchObject({ status: 400 });
    expect(await readError(await post({ model: "test/embed", input: 5 }))).toMatchObject({ status: 400 });
    expect(
      await readError(await post({ model: "test/embed", input: "x", encoding_format: "hex" })),
    ).toMatchObject({
      status: 400,
    });
    expect(await readError(await post({ model: "test/embed", input: "x".repeat(70_000) }))).toMatchObject({
      status: 413,
    });
    expect(await readError(await post({ model: "openai/gpt-4o-mini", input: "x" }))).toMatchObject({
      status: 400,
      reason: "wrong_model_kind",
    });
    expect(await readError(await post({ model: "nope/none", input: "x" }))).toMatchObject({ status: 404 });
    edge.primary.setScenario({ name: "fail", status: 500 });
    expect(await readError(await post({ model: "test/embed", input: "x" }))).toMatchObject({ status: 502 });
  });
});
