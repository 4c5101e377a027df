import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

// Issue 30: Gemini-style clients other than @google/genai (@ai-sdk/google, LangChain's Google client)
// take a model name with a `/` as a resource path and post `/v1beta/{author}/{slug}:{method}`; the
// catalogue's `author/slug` ids are served there, every family behind them (plain HTTP here, the AI
// SDK's Google provider in e2e/client-matrix.e2e.test.ts).

const key = testKey("acct-gemini-author-path");
const other = testKey("acct-gemini-author-path-b", { allowedModels: { values: ["openai/gpt-4o-mini"] } });
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key, other] });
});

afterAll(async () => {
  await edge?.stop();
});

beforeEach(() => {
  for (const fake of [edge.primary, edge.anthropic, edge.gemini]) fake.clearRequests();
});

const contents = [{ role: "user", parts: [{ text: "hello there" }] }];
const post = (path: string, body: unknown = { contents }, secret = key.secret) =>
  fetch(`${edge.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-goog-api-key": secret },
    body: JSON.stringify(body),
  });

interface GenerateContent {
  candidates: { content: { parts: { text: string }[] } }[];
  modelVersion: string;
}

describe("POST /v1beta/{author}/{slug}:{method}", () => {
  it.each([
    ["google/gemini-test", () => edge.gemini],
    ["anthropic/claude-test", () => edge.anthropic],
    ["openai/gpt-4o-mini", () => edge.primary],
  ])("generateContent for %s reaches its provider", async (id, fake) => {
    const response = await post(`/v1beta/${id}:generateContent`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as GenerateContent;
    expect(body.candidates[0]?.content.parts[0]?.text).toBe("Echo: hello there");
    expect(body.modelVersion).toBe(id);
    expect(fake().requests()).toHaveLength(1);
  });

  it("streamGenerateContent with alt=sse, and a percent-encoded colon", async () => {
    const response = await post("/v1beta/anthropic/claude-test%3AstreamGenerateContent?alt=sse");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const text = await response.text();
    const pieces = text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)) as GenerateContent);
    expect(pieces.map((piece) => piece.candidates[0]?.content.parts[0]?.text ?? "").join("")).toBe(
      "Echo: hello there",
    );
  });

  it("countTokens", async () => {
    const response = await post("/v1beta/openai/gpt-4o-mini:countTokens");
    expect(response.status).toBe(200);
    expect(((await response.json()) as { totalTokens: number }).totalTokens).toBeGreaterThan(0);
  });

  it("answers an unknown model, an unknown method and a bad key in Gemini's error shape", async () => {
    const unknown = await post("/v1beta/nobody/nothing:generateContent");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { status: string } }).error.status).toBe("NOT_FOUND");
    expect((await post("/v1beta/google/gemini-test:fly")).status).toBe(404);
    expect(
      (await post("/v1beta/google/gemini-test:generateContent", { contents }, "lr_live_nope")).status,
    ).toBe(401);
  });

  it("holds the key's model allow-list", async () => {
    const refused = await post("/v1beta/anthropic/claude-test:generateContent", { contents }, other.secret);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 403, status: "PERMISSION_DENIED" } });
    expect(edge.anthropic.requests()).toHaveLength(0);
    expect(
      (await post("/v1beta/openai/gpt-4o-mini:generateContent", { contents }, other.secret)).status,
    ).toBe(200);
  });
});
