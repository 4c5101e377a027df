import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

// Regression (issue 16): `max_tokens: 0.5` on the provider proxy was a 500, the hold's integer money
// failing on a fraction. A maximum that is not a positive whole number is the caller's error: 400 in the
// provider's own error shape, before admission and before any upstream contact.

const key = testKey("acct-proxy-max-tokens");
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key] });
});

afterAll(async () => {
  await edge?.stop();
});

beforeEach(() => {
  for (const fake of [edge.primary, edge.anthropic, edge.gemini]) fake.clearRequests();
});

const headers = { authorization: `Bearer ${key.secret}`, "content-type": "application/json" };
const message = [{ role: "user", content: "hi" }];
/** Each value as the JSON text a client sends (1e400 parses to Infinity). */
const badValues = ["0.5", "-1", "0", "1e400", '"64"', "true", "[64]"];

async function post(path: string, jsonText: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${edge.url}${path}`, { method: "POST", headers, body: jsonText });
  return { status: response.status, body: await response.json() };
}

function upstreamCalls(): number {
  return [edge.primary, edge.anthropic, edge.gemini].reduce((sum, fake) => sum + fake.requests().length, 0);
}

describe("provider proxy: the requested maximum of output tokens", () => {
  it.each(badValues)(
    "OpenAI max_tokens %s is a 400 in the OpenAI envelope, nothing forwarded",
    async (value) => {
      const answer = await post(
        "/openai/v1/chat/completions",
        `{"model":"gpt-4o-mini","max_tokens":${value},"messages":${JSON.stringify(message)}}`,
      );
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        error: {
          message: "max_tokens: expected a positive integer",
          metadata: { reason: "invalid_parameter" },
        },
      });
      expect(upstreamCalls()).toBe(0);
    },
  );

  it("OpenAI max_completion_tokens is checked first, by its own name", async () => {
    const answer = await post(
      "/openai/v1/chat/completions",
      `{"model":"gpt-4o-mini","max_completion_tokens":2.5,"max_tokens":8,"messages":${JSON.stringify(message)}}`,
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { metadata: { field: "max_completion_tokens" } } });
  });

  it.each(badValues)("Anthropic max_tokens %s is a 400 in Anthropic's error shape", async (value) => {
    const answer = await post(
      "/anthropic/v1/messages",
      `{"model":"claude-test","max_tokens":${value},"messages":${JSON.stringify(message)}}`,
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: "max_tokens: expected a positive integer" },
    });
    expect(upstreamCalls()).toBe(0);
  });

  it("Gemini generationConfig.maxOutputTokens 0.5 is a 400 in Gemini's error shape", async () => {
    const answer = await post(
      "/google/v1beta/models/gemini-2.5-flash:generateContent",
      JSON.stringify({ contents: [{ parts: [{ text: "hi" }] }], generationConfig: { maxOutputTokens: 0.5 } }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: { code: 400, status: "INVALID_ARGUMENT", message: expect.stringContaining("maxOutputTokens") },
    });
    expect(upstreamCalls()).toBe(0);
  });

  it("a positive whole number, or none at all, is still served", async () => {
    const withMaximum = await post(
      "/openai/v1/chat/completions",
      `{"model":"gpt-4o-mini","max_tokens":64,"messages":${JSON.stringify(message)}}`,
    );
    expect(withMaximum.status).toBe(200);
    const without = await post(
      "/openai/v1/chat/completions",
      `{"model":"gpt-4o-mini","max_tokens":null,"messages":${JSON.stringify(message)}}`,
    );
    expect(without.status).toBe(200);
    expect(edge.primary.requests()).toHaveLength(2);
  });
});
