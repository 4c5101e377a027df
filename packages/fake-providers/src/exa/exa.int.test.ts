import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeServer } from "../core/server.js";
import { startFakeExa } from "./server.js";

const KEY = "exa-fake-key";
let server: FakeServer;

beforeAll(async () => {
  server = await startFakeExa({ apiKey: KEY });
});
afterAll(() => server.close());

async function search(body: unknown, headers: Record<string, string> = { "x-api-key": KEY }) {
  const response = await fetch(`${server.baseUrl}/search`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("the fake Exa search API", () => {
  it("answers numResults results in Exa's shape, with text cut to maxCharacters", async () => {
    const { status, body } = await search({
      query: "gateway news",
      numResults: 3,
      contents: { text: { maxCharacters: 20 } },
    });
    expect(status).toBe(200);
    expect(body.requestId).toMatch(/^[0-9a-f]{32}$/);
    const results = body.results as Array<Record<string, unknown>>;
    expect(results).toHaveLength(3);
    expect(results[0]).toEqual({
      id: "https://result-1.example.org/",
      url: "https://result-1.example.org/",
      title: "Result 1: gateway news",
      publishedDate: "2026-01-15T00:00:00.000Z",
      author: "Author 1",
      text: "Result 1 about gatew",
    });
    expect(body.costDollars).toEqual({ total: 0.007 });
  });

  it("leaves text out unless contents asks for it, and defaults to 10 results", async () => {
    const { body } = await search({ query: "q" });
    const results = body.results as Array<Record<string, unknown>>;
    expect(results).toHaveLength(10);
    expect(results[0]).not.toHaveProperty("text");
  });

  it("accepts the key as a bearer token too", async () => {
    expect((await search({ query: "q" }, { authorization: `Bearer ${KEY}` })).status).toBe(200);
  });

  it("refuses a missing or wrong key with 401 INVALID_API_KEY", async () => {
    const missing = await search({ query: "q" }, {});
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ tag: "INVALID_API_KEY", error: "API key must be provided" });
    expect(missing.body.requestId).toEqual(expect.any(String));
    const wrong = await search({ query: "q" }, { "x-api-key": "nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ tag: "INVALID_API_KEY", error: "Invalid API key" });
  });

  it("refuses unknown fields, a missing query and out-of-range numResults as INVALID_REQUEST_BODY", async () => {
    for (const body of [
      { query: "q", max_results: 5 },
      { query: "q", contents: { text: { maxChars: 5 } } },
      { query: "q", contents: { txt: true } },
      { numResults: 5 },
      { query: "q", numResults: 0 },
      { query: "q", numResults: 101 },
    ]) {
      const answer = await search(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.tag).toBe("INVALID_REQUEST_BODY");
    }
  });

  it("answers Exa's 404 off /search", async () => {
    const response = await fetch(`${server.baseUrl}/contents`, {
      method: "POST",
      headers: { "x-api-key": KEY },
      body: "{}",
    });
    expect(response.status).toBe(404);
  });
});
