import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { OpenRouter } from "@openrouter/sdk";
import { generateText, streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FormatsGateway, startFormatsGateway } from "./provider-formats.js";

// Issue 30: clients at their defaults against a model served in each wire format through the strict
// fakes, not only the demo provider (which sends a fingerprint, unlike Anthropic and Gemini).

const MODELS = {
  openai: "openai/gpt-4o-mini",
  anthropic: "anthropic/claude-sonnet-4",
  gemini: "google/gemini-2.5-flash",
} as const;

let gateway: FormatsGateway;

beforeAll(async () => {
  gateway = await startFormatsGateway();
}, 240_000);

afterAll(async () => {
  await gateway?.stop();
});

const sdk = () => new OpenRouter({ apiKey: gateway.apiKey, serverURL: `${gateway.url}/api/v1` });

describe("@openrouter/sdk chat.send through each wire format", () => {
  for (const [format, model] of Object.entries(MODELS)) {
    it(`streams from ${model} (${format}): every chunk passes the SDK's schema`, async () => {
      const stream = await sdk().chat.send({
        chatRequest: { model, messages: [{ role: "user", content: "Hello stream" }], stream: true },
      });
      if ("choices" in stream) throw new Error("expected a stream");
      let text = "";
      const ids = new Set<string>();
      for await (const chunk of stream) {
        ids.add(chunk.id);
        text += chunk.choices[0]?.delta.content ?? "";
      }
      expect(text.length).toBeGreaterThan(0);
      expect(ids.size).toBe(1);
      expect(gateway.fakes[format as keyof typeof MODELS].requests().length).toBeGreaterThan(0);
    });

    it(`answers from ${model} (${format}) not streamed: the reply passes the SDK's schema`, async () => {
      const result = await sdk().chat.send({
        chatRequest: { model, messages: [{ role: "user", content: "Hello" }] },
      });
      if (!("choices" in result)) throw new Error("expected a ChatResult");
      expect(result.choices[0]?.message.content?.length).toBeGreaterThan(0);
      expect(result.systemFingerprint === null || typeof result.systemFingerprint === "string").toBe(true);
    });
  }
});

describe("@ai-sdk/anthropic at its defaults with the catalogue's ids", () => {
  const anthropic = () => createAnthropic({ apiKey: gateway.apiKey, baseURL: `${gateway.url}/v1` });

  it("generateText on anthropic/claude-sonnet-4: it asks for 128,000 tokens, Anthropic is sent the model's 64,000", async () => {
    gateway.fakes.anthropic.clearRequests();
    const result = await generateText({ model: anthropic()(MODELS.anthropic), prompt: "Hello AI SDK" });
    expect(result.text.length).toBeGreaterThan(0);
    const sent = gateway.fakes.anthropic.requests().at(-1)?.body as { max_tokens: number; model: string };
    expect(sent).toMatchObject({ model: "claude-sonnet-4-20250514", max_tokens: 64_000 });
  });

  it("streamText on anthropic/claude-sonnet-4", async () => {
    const result = streamText({ model: anthropic()(MODELS.anthropic), prompt: "Hello AI SDK stream" });
    let text = "";
    for await (const delta of result.textStream) text += delta;
    expect(text.length).toBeGreaterThan(0);
    expect(await result.finishReason).toBe("stop");
  });
});

describe("@ai-sdk/google with author/slug ids (POST /v1beta/{author}/{slug}:…)", () => {
  const google = () => createGoogleGenerativeAI({ apiKey: gateway.apiKey, baseURL: `${gateway.url}/v1beta` });

  for (const [format, model] of Object.entries(MODELS)) {
    it(`generateText and streamText on ${model} (${format})`, async () => {
      const fake = gateway.fakes[format as keyof typeof MODELS];
      fake.clearRequests();
      const result = await generateText({ model: google()(model), prompt: "Hello Google provider" });
      expect(result.text.length).toBeGreaterThan(0);
      expect(result.usage.outputTokens).toBeGreaterThan(0);
      const streamed = streamText({ model: google()(model), prompt: "Hello Google stream" });
      let text = "";
      for await (const delta of streamed.textStream) text += delta;
      expect(text.length).toBeGreaterThan(0);
      expect(fake.requests().length).toBe(2);
    });
  }
});

describe("@openrouter/sdk chat.send with cacheControl (automatic caching)", () => {
  for (const [format, model] of Object.entries(MODELS)) {
    it(`${model} (${format}): served; on Anthropic the last block carries the breakpoint`, async () => {
      const fake = gateway.fakes[format as keyof typeof MODELS];
      fake.clearRequests();
      const result = await sdk().chat.send({
        chatRequest: {
          model,
          cacheControl: { type: "ephemeral" },
          messages: [
            { role: "system", content: "Be terse." },
            { role: "user", content: "Hello cache" },
          ],
        },
      });
      if (!("choices" in result)) throw new Error("expected a ChatResult");
      expect(result.choices[0]?.message.content?.length).toBeGreaterThan(0);
      const sent = JSON.stringify(fake.requests().at(-1)?.body);
      if (format === "anthropic") expect(sent).toContain('"cache_control":{"type":"ephemeral"}');
      else expect(sent).not.toContain("cache_control");
    });
  }
});
