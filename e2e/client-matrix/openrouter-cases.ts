import { OpenRouter } from "@openrouter/sdk";
import { expect } from "vitest";
import { expectEcho, expectServedBy, type MatrixCase, type MatrixContext } from "./context.js";

// `@openrouter/sdk` at its default base URL shape (`…/api/v1`): every answer is parsed by the SDK's
// own zod schemas, so a reply that does not match them rejects (issue 30: `system_fingerprint: null`
// on streamed chunks threw on Anthropic and Gemini). `@openrouter/ai-sdk-provider` is with the AI SDK.

/** A message's content: a string, or (the SDK's type allows it) content parts. */
const textOf = (content: unknown): string =>
  typeof content === "string" ? content : JSON.stringify(content ?? "");

const sdk = (c: MatrixContext) => new OpenRouter({ apiKey: c.apiKey, serverURL: `${c.url}/api/v1` });

export const openrouterCases: MatrixCase[] = [
  {
    sdk: "@openrouter/sdk",
    call: "chat.send",
    async run(c) {
      const result = await sdk(c).chat.send({
        chatRequest: { model: c.model, messages: [{ role: "user", content: "Hello OpenRouter" }] },
      });
      if (!("choices" in result)) throw new Error("expected a ChatResult");
      expectEcho(textOf(result.choices[0]?.message.content), "Hello OpenRouter");
      expect(result.usage?.completionTokens).toBeGreaterThan(0);
      expect(result.systemFingerprint === null || typeof result.systemFingerprint === "string").toBe(true);
      expectServedBy(c);
    },
  },
  {
    sdk: "@openrouter/sdk",
    call: "chat.send (stream)",
    async run(c) {
      const stream = await sdk(c).chat.send({
        chatRequest: {
          model: c.model,
          messages: [{ role: "user", content: "Hello OR stream" }],
          stream: true,
        },
      });
      if ("choices" in stream) throw new Error("expected a stream");
      let text = "";
      const ids = new Set<string>();
      for await (const chunk of stream) {
        ids.add(chunk.id);
        text += chunk.choices[0]?.delta.content ?? "";
      }
      expectEcho(text, "Hello OR stream");
      expect(ids.size).toBe(1);
      expectServedBy(c);
    },
  },
  {
    sdk: "@openrouter/sdk",
    call: "chat.send with cacheControl (automatic caching)",
    async run(c) {
      const result = await sdk(c).chat.send({
        chatRequest: {
          model: c.model,
          cacheControl: { type: "ephemeral" },
          messages: [
            { role: "system", content: "Be terse." },
            { role: "user", content: "Hello cache" },
          ],
        },
      });
      if (!("choices" in result)) throw new Error("expected a ChatResult");
      expectEcho(textOf(result.choices[0]?.message.content), "Hello cache");
      // On Anthropic the last block carries the breakpoint; the other formats are sent no such field.
      const sent = JSON.stringify(c.fake.requests().at(-1)?.body);
      if (c.format === "anthropic") expect(sent).toContain('"cache_control":{"type":"ephemeral"}');
      else expect(sent).not.toContain("cache_control");
    },
  },
  {
    sdk: "@openrouter/sdk",
    call: "beta.responses.send",
    async run(c) {
      const result = await sdk(c).beta.responses.send({
        responsesRequest: { model: c.model, input: "Hello OR responses" },
      });
      if (!("output" in result)) throw new Error("expected a response object");
      expect(result.status).toBe("completed");
      expect(JSON.stringify(result.output)).toContain("Echo: Hello OR responses");
    },
  },
  {
    sdk: "@openrouter/sdk",
    call: "beta.responses.send (stream)",
    async run(c) {
      const stream = await sdk(c).beta.responses.send({
        responsesRequest: { model: c.model, input: "Hello OR events", stream: true },
      });
      if ("output" in stream) throw new Error("expected a stream");
      const types: string[] = [];
      for await (const event of stream) types.push(event.type);
      expect(types[0]).toBe("response.created");
      expect(types).toContain("response.output_text.delta");
      expect(types.at(-1)).toBe("response.completed");
    },
  },
];
