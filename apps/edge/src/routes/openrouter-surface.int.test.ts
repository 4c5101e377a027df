import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EdgeHarness, startEdgeHarness } from "../test/harness.js";
import { testKey } from "../test/principals.js";
import { usageEventFor } from "../test/usage.js";

// OpenRouter's clients default to the base URL …/api/v1, and its SDK requires `system_fingerprint`
// and reads `provider` on every chat completion (issue 13).

const key = testKey("acct-openrouter-surface");
let edge: EdgeHarness;
let client: OpenAI;

beforeAll(async () => {
  edge = await startEdgeHarness({ keys: [key] });
  client = new OpenAI({ apiKey: key.secret, baseURL: `${edge.url}/api/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await edge?.stop();
});

const hello = { messages: [{ role: "user" as const, content: "hello" }] };

describe("inference under /api/v1", () => {
  it("serves chat completions, metered like /v1", async () => {
    const { data, response } = await client.chat.completions
      .create({ model: "openai/gpt-4o-mini", ...hello })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe("Echo: hello");
    const event = await usageEventFor(edge, response.headers.get("x-generation-id") ?? "");
    expect(event.apiType).toBe("chat");
  });

  it("serves embeddings", async () => {
    const data = await client.embeddings.create({ model: "test/embed", input: "hello" });
    expect(data.data[0]?.embedding.length).toBe(1536);
  });
});

describe("system_fingerprint and provider on chat completions", () => {
  it("passes the provider's fingerprint through and names the provider, streamed and not", async () => {
    const data = await client.chat.completions.create({ model: "openai/gpt-4o-mini", ...hello });
    expect(data.system_fingerprint).toBe("fp_fake_openai");
    expect((data as unknown as { provider: string }).provider).toBe("openai");
    const stream = await client.chat.completions.create({
      model: "openai/gpt-4o-mini",
      ...hello,
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.system_fingerprint).toBe("fp_fake_openai");
      expect((chunk as unknown as { provider: string }).provider).toBe("openai");
    }
  });

  it("without a provider fingerprint (Anthropic): null on the completion, no member on the chunks", async () => {
    const data = await client.chat.completions.create({ model: "anthropic/claude-test", ...hello });
    expect(data).toHaveProperty("system_fingerprint", null);
    expect((data as unknown as { provider: string }).provider).toBe("anthropic");
    const stream = await client.chat.completions.create({
      model: "anthropic/claude-test",
      ...hello,
      stream: true,
    });
    // @openrouter/sdk: ChatResult has `system_fingerprint: z.nullable(z.string())` (required), its
    // ChatStreamChunk `z.string().optional()` (a null throws).
    for await (const chunk of stream) expect(chunk).not.toHaveProperty("system_fingerprint");
  });
});
