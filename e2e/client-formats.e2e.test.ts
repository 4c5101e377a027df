import { OpenRouter } from "@openrouter/sdk";
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
