import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";
import { usageEventFor } from "../test/usage.js";

const key = testKey("acct-attribution");
let edge: EdgeHarness;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key] });
});

afterAll(async () => {
  await edge?.stop();
});

async function chat(headers: Record<string, string>, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await fetch(`${edge.url}/api/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json", ...headers },
    body: JSON.stringify({
      model: "openai/gpt-4o-mini",
      messages: [{ role: "user", content: "hi" }],
      ...extra,
    }),
  });
  expect(response.status).toBe(200);
  return response.headers.get("x-generation-id") ?? "";
}

describe("app attribution on the usage event", () => {
  it("carries HTTP-Referer (origin and path) and X-OpenRouter-Title, as @openrouter/sdk sends them", async () => {
    const id = await chat({
      "http-referer": "https://app.example/chat?session=s3cret",
      "x-openrouter-title": "Example App",
    });
    const event = await usageEventFor(edge, id);
    expect([event.httpReferer, event.appTitle]).toEqual(["https://app.example/chat", "Example App"]);
  });

  it("serves a request whose attribution is not valid, and records none", async () => {
    const id = await chat({ "http-referer": "not a url", "x-title": "x".repeat(200) });
    const event = await usageEventFor(edge, id);
    expect([event.httpReferer, event.appTitle]).toEqual(["", ""]);
  });

  it("carries the request's user and the caller's User-Agent (OpenRouter's external_user and user_agent, issue 30)", async () => {
    const id = await chat({ "user-agent": "example-client/1.2" }, { user: "end-user-42" });
    const event = await usageEventFor(edge, id);
    expect([event.externalUser, event.userAgent]).toEqual(["end-user-42", "example-client/1.2"]);
  });
});
