import { OpenRouter } from "@openrouter/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HostileGateway, startHostileGateway } from "./hostile/gateway.js";

// Issue 30: users copy ids from OpenRouter's model pages, and OpenRouter's SDK suite asks for
// `anthropic/claude-haiku-4.5`; OpenRouter's `models.count()` is `GET /api/v1/models/count`. The
// embedded default as a process with the strict fakes as its providers; the SDKs at their defaults.

let gateway: HostileGateway;

beforeAll(async () => {
  gateway = await startHostileGateway();
}, 240_000);

afterAll(async () => {
  await gateway?.stop();
});

describe("OpenRouter's own model ids and models.count()", () => {
  it.each(["anthropic/claude-haiku-4.5", "anthropic/claude-3.5-haiku"])(
    "the openai SDK's chat.completions.create with %s is served by Anthropic",
    async (model) => {
      const client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.url}/v1` });
      const before = gateway.upstreamCounts().anthropic;
      const completion = await client.chat.completions.create({
        model,
        max_tokens: 32,
        messages: [{ role: "user", content: "Hello from an OpenRouter id" }],
      });
      expect(completion.choices[0]?.message.content?.length ?? 0).toBeGreaterThan(0);
      expect(gateway.upstreamCounts().anthropic).toBe(before + 1);
    },
  );

  it("@openrouter/sdk models.count(): the text models models.list() shows", async () => {
    const sdk = new OpenRouter({ apiKey: gateway.apiKey, serverURL: `${gateway.url}/api/v1` });
    const counted = await sdk.models.count();
    const listed = (await sdk.models.list()).result.data;
    const text = listed.filter((model) => model.architecture.outputModalities.includes("text"));
    expect(counted.data.count).toBe(text.length);
    expect(counted.data.count).toBeGreaterThanOrEqual(100);
    expect((await sdk.models.count({ outputModalities: "all" })).data.count).toBe(listed.length);
  });
});
