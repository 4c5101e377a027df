import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";

// Issue 30: OpenRouter's top-level `cache_control` (automatic caching, @openrouter/sdk's `cacheControl`)
// "applies cache breakpoints to the last cacheable block in the request": on an Anthropic body the
// gateway writes the marker there; OpenAI and Gemini cache on their own and are sent no such field.

const key = testKey("acct-automatic-caching");
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

const ephemeral = { type: "ephemeral" };
const conversation = [
  { role: "system", content: "Be terse." },
  { role: "user", content: "first question" },
  { role: "assistant", content: "first answer" },
  { role: "user", content: [{ type: "text", text: "second question" }] },
];

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${edge.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key.secret}`, ...headers },
    body: JSON.stringify(body),
  });

type Sent = { cache_control?: unknown; messages: { content: { cache_control?: unknown }[] | string }[] };
const lastSent = (fake: EdgeHarness["anthropic"]) => fake.requests().at(-1)?.body as Sent;

describe("top-level cache_control", () => {
  it("chat completions → Anthropic: a breakpoint on the last block of the last message, none top-level", async () => {
    const response = await post("/v1/chat/completions", {
      model: "anthropic/claude-test",
      messages: conversation,
      cache_control: { type: "ephemeral", ttl: "1h" },
    });
    expect(response.status).toBe(200);
    const sent = lastSent(edge.anthropic);
    expect(sent).not.toHaveProperty("cache_control");
    const last = sent.messages.at(-1)?.content;
    expect(Array.isArray(last) && last.at(-1)?.cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
    // Only that one: earlier turns are left as they were.
    expect(JSON.stringify(sent.messages.slice(0, -1))).not.toContain("cache_control");
  });

  it("keeps a caller's own marker on the last block instead of adding one", async () => {
    const marked = [
      {
        role: "user",
        content: [{ type: "text", text: "marked", cache_control: { type: "ephemeral", ttl: "1h" } }],
      },
    ];
    const response = await post("/v1/chat/completions", {
      model: "anthropic/claude-test",
      messages: marked,
      cache_control: ephemeral,
    });
    expect(response.status).toBe(200);
    const last = lastSent(edge.anthropic).messages.at(-1)?.content;
    expect(Array.isArray(last) && last[0]?.cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
  });

  it.each([
    ["openai/gpt-4o-mini", () => edge.primary],
    ["google/gemini-test", () => edge.gemini],
  ])(
    "chat completions → %s: served, no cache_control sent (the provider caches on its own)",
    async (model, fake) => {
      const response = await post("/v1/chat/completions", {
        model,
        messages: conversation,
        cache_control: ephemeral,
      });
      expect(response.status).toBe(200);
      expect(JSON.stringify(fake().requests().at(-1)?.body)).not.toContain("cache_control");
    },
  );

  it("/v1/messages → Anthropic: the top-level marker moves onto the last cacheable block", async () => {
    const response = await post(
      "/v1/messages",
      {
        model: "anthropic/claude-test",
        max_tokens: 100,
        cache_control: ephemeral,
        messages: [
          { role: "user", content: "first question" },
          { role: "assistant", content: "first answer" },
          { role: "user", content: "second question" },
        ],
      },
      { "anthropic-version": "2023-06-01" },
    );
    expect(response.status).toBe(200);
    const sent = lastSent(edge.anthropic);
    expect(sent).not.toHaveProperty("cache_control");
    expect(sent.messages.at(-1)?.content).toEqual([
      { type: "text", text: "second question", cache_control: ephemeral },
    ]);
  });

  it("/v1/messages translated to OpenAI: served without the field", async () => {
    const response = await post(
      "/v1/messages",
      {
        model: "openai/gpt-4o-mini",
        max_tokens: 100,
        cache_control: ephemeral,
        messages: [{ role: "user", content: "hi" }],
      },
      { "anthropic-version": "2023-06-01" },
    );
    expect(response.status).toBe(200);
    expect(JSON.stringify(edge.primary.requests().at(-1)?.body)).not.toContain("cache_control");
  });

  it("refuses a cache_control that is not an ephemeral marker, before any provider", async () => {
    const response = await post("/v1/chat/completions", {
      model: "anthropic/claude-test",
      messages: conversation,
      cache_control: { type: "forever" },
    });
    expect(response.status).toBe(400);
    expect(edge.anthropic.requests()).toHaveLength(0);
  });
});
