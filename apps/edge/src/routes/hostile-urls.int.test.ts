import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

// Regressions found by the hostile-input suites (issue 16): a path segment that does not decode was a
// 500 (a Gemini model name) or an HTML page (the error renderer itself threw on it); a native POST
// without a model string was forwarded on the gateway's account as a call that names no model.

const key = testKey("acct-hostile-urls");
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key] });
});

afterAll(async () => {
  await edge?.stop();
});

/** A POST with the target sent exactly as written (fetch would normalise or refuse it). */
function rawPost(target: string, body: unknown): Promise<{ status: number; type: string; json: unknown }> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(
      `${edge.url}${target}`,
      {
        method: "POST",
        path: target,
        headers: {
          authorization: `Bearer ${key.secret}`,
          "x-goog-api-key": key.secret,
          "content-type": "application/json",
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            type: String(response.headers["content-type"]),
            json: JSON.parse(text),
          }),
        );
      },
    );
    call.on("error", reject);
    call.end(JSON.stringify(body));
  });
}

const upstreamCalls = () =>
  [edge.primary, edge.anthropic, edge.gemini].reduce((sum, fake) => sum + fake.requests().length, 0);
const gemini = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };
const chat = { model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] };

describe("edge: URLs that do not decode", () => {
  it.each(["%80", "%ff", "%e0%80", "%00", "gem%00ini"])(
    "a Gemini model segment %s is a 400 malformed_url in Gemini's shape",
    async (segment) => {
      const answer = await rawPost(`/v1beta/models/${segment}:generateContent`, gemini);
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
    },
  );

  it.each(["/openai/v1/%80", "/openai/v1/chat/%ff", "/v1/chat/%e0%80", "/anthropic/v1/%c0%af"])(
    "%s is a 400 in JSON, not express's HTML page",
    async (target) => {
      const answer = await rawPost(target, chat);
      expect(answer.status).toBe(400);
      expect(answer.type).toContain("application/json");
      expect(answer.json).toMatchObject({ error: { message: expect.stringContaining("malformed") } });
    },
  );

  it("nothing reached a provider", () => {
    expect(upstreamCalls()).toBe(0);
  });
});

describe("provider proxy: a POST names its model as a string", () => {
  it.each([
    ["absent", { messages: chat.messages }],
    ["a number", { ...chat, model: 0 }],
    ["an array", { ...chat, model: ["gpt-4o-mini"] }],
    ["empty", { ...chat, model: "" }],
  ])("model %s is a 400 naming the field, nothing forwarded", async (_what, body) => {
    const before = upstreamCalls();
    const answer = await rawPost("/openai/v1/chat/completions", body);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      error: { metadata: { field: "model", reason: "invalid_parameter" } },
    });
    const anthropic = await rawPost("/anthropic/v1/messages", { ...body, max_tokens: 8 });
    expect(anthropic.status).toBe(400);
    expect(anthropic.json).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(upstreamCalls()).toBe(before);
  });

  it("a body that is not an object is refused the same way", async () => {
    const answer = await rawPost("/openai/v1/chat/completions", [chat]);
    expect(answer.status).toBe(400);
    expect(upstreamCalls()).toBe(0);
  });
});
