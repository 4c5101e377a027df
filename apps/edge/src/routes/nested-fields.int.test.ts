import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

// Issue 12, nested members on the translated path (field table rows nested-*-other): a member the gateway
// has no place for below the top level (`messages[0].foo`, a block's `citations`, a part's
// `videoMetadata`) is the caller's 400 `untranslatable_request` naming its path, in the surface's error
// shape, before any provider is called, when the target is of another format; a same-format target gets
// the body as sent (the strict fakes accept the real members used here).

const key = testKey("acct-nested-fields");
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key] });
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

type Json = Record<string, unknown>;
type Fake = EdgeHarness["anthropic"];
const bodies = (fake: Fake) => fake.requests().map((request) => request.body as Json);

async function post(path: string, body: unknown, headers: Record<string, string>) {
  const response = await fetch(`${edge.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Json };
}

const chat = (body: Json) => post("/v1/chat/completions", body, { authorization: `Bearer ${key.secret}` });
const messages = (body: Json) =>
  post("/v1/messages", body, { "x-api-key": key.secret, "anthropic-version": "2023-06-01" });
const gemini = (body: Json, model: string) =>
  post(`/v1beta/models/${model}:generateContent`, body, { "x-goog-api-key": key.secret });
const errorOf = (json: Json) => (json.error ?? {}) as { message?: string; code?: unknown; type?: string };
const noCalls = () => {
  for (const fake of [edge.primary, edge.backup, edge.anthropic, edge.gemini])
    expect(fake.requests()).toEqual([]);
};

describe("chat completions", () => {
  it("refuses an unknown member of a message or a tool for Anthropic and Gemini, naming its path", async () => {
    const tool = { type: "function", function: { name: "weather", parameters: { type: "object" }, bar: 1 } };
    for (const model of ["anthropic/claude-test", "google/gemini-test"]) {
      const inMessage = await chat({ model, messages: [{ role: "user", content: "hi", foo: 1 }] });
      expect(inMessage.status).toBe(400);
      expect(errorOf(inMessage.json).message).toMatch(/^messages\[0\]\.foo cannot be sent to this model/);
      const inTool = await chat({ model, messages: [{ role: "user", content: "hi" }], tools: [tool] });
      expect(inTool.status).toBe(400);
      expect(errorOf(inTool.json).message).toMatch(/^tools\[0\]\.function\.bar cannot be sent to this model/);
    }
    noCalls();
  });

  it("sends the member as sent to an OpenAI-compatible endpoint", async () => {
    await chat({ model: "openai/gpt-4o-mini", messages: [{ role: "user", content: "hi", foo: 1 }] });
    expect(bodies(edge.primary)[0]?.messages).toEqual([{ role: "user", content: "hi", foo: 1 }]);
  });
});

describe("Anthropic /v1/messages", () => {
  const cited = {
    model: "anthropic/claude-test",
    max_tokens: 16,
    messages: [
      { role: "user", content: "hi" },
      { role: "assistant", content: [{ type: "text", text: "yes", citations: [] }] },
      { role: "user", content: "ok" },
    ],
  };

  it("refuses a block's untranslated member for another format, in Anthropic's error shape", async () => {
    const answer = await messages({ ...cited, model: "openai/gpt-4o-mini" });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(errorOf(answer.json).message).toMatch(
      /^messages\[1\]\.content\[0\]\.citations: only anthropic's own API/,
    );
    noCalls();
  });

  it("sends it as sent to Anthropic", async () => {
    const answer = await messages(cited);
    expect(answer.status).toBe(200);
    expect(bodies(edge.anthropic)[0]?.messages).toEqual(cited.messages);
  });

  it("counts its tokens for Anthropic, as /v1/messages would take it", async () => {
    const { max_tokens: _cap, ...body } = cited;
    const answer = await post("/v1/messages/count_tokens", body, {
      "x-api-key": key.secret,
      "anthropic-version": "2023-06-01",
    });
    expect(answer.status).toBe(200);
    expect(answer.json.input_tokens).toBeGreaterThan(0);
  });
});

describe("Gemini generateContent", () => {
  const body = { contents: [{ role: "user", parts: [{ text: "hi", videoMetadata: { fps: 1 } }] }] };

  it("refuses a part's untranslated member for another format, in Gemini's error shape", async () => {
    const answer = await gemini(body, "anthropic/claude-test");
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT" });
    expect(errorOf(answer.json).message).toMatch(
      /^contents\[0\]\.parts\[0\]\.videoMetadata: only gemini's own API/,
    );
    noCalls();
  });

  it("sends it as sent to Gemini", async () => {
    const answer = await gemini(body, "google/gemini-test");
    expect(answer.status).toBe(200);
    expect(bodies(edge.gemini)[0]?.contents).toEqual(body.contents);
  });
});
