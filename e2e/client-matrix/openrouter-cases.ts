import { OpenRouter } from "@openrouter/sdk";
import { expect } from "vitest";
import { expectEcho, expectServedBy, type MatrixCase, type MatrixContext } from "./context.js";

// `@openrouter/sdk` at its default base URL shape (`…/api/v1`): every answer is parsed by the SDK's
// own zod schemas, so a reply that does not match them rejects (issue 30: `system_fingerprint: null`
// on streamed chunks threw on Anthropic and Gemini). `@openrouter/ai-sdk-provider` is with the AI SDK.

/** A message's content: a string, or (the SDK's type allows it) content parts. */
const textOf = (content: unknown): string =>
  typeof content === "string" ? content : JSON.stringify(content ?? "");

/** One page reading "quarterly report: revenue up" (apps/edge/src/test/pdf.ts tinyPdf). */
const PDF =
  "JVBERi0xLjQKMSAwIG9iago8PCAvVHlwZSAvQ2F0YWxvZyAvUGFnZXMgMiAwIFIgPj4KZW5kb2JqCjIgMCBvYmoKPDwgL1R5cGUgL1BhZ2VzIC9LaWRzIFs0IDAgUl0gL0NvdW50IDEgPj4KZW5kb2JqCjMgMCBvYmoKPDwgL1R5cGUgL0ZvbnQgL1N1YnR5cGUgL1R5cGUxIC9CYXNlRm9udCAvSGVsdmV0aWNhID4+CmVuZG9iago0IDAgb2JqCjw8IC9UeXBlIC9QYWdlIC9QYXJlbnQgMiAwIFIgL01lZGlhQm94IFswIDAgNjEyIDc5Ml0gL0NvbnRlbnRzIDUgMCBSIC9SZXNvdXJjZXMgPDwgL0ZvbnQgPDwgL0YxIDMgMCBSID4+ID4+ID4+CmVuZG9iago1IDAgb2JqCjw8IC9MZW5ndGggNTkgPj4Kc3RyZWFtCkJUIC9GMSAxMiBUZiA3MiA3MDAgVGQgKHF1YXJ0ZXJseSByZXBvcnQ6IHJldmVudWUgdXApIFRqIEVUCmVuZHN0cmVhbQplbmRvYmoKeHJlZgowIDYKMDAwMDAwMDAwMCA2NTUzNSBmIAowMDAwMDAwMDA5IDAwMDAwIG4gCjAwMDAwMDAwNTggMDAwMDAgbiAKMDAwMDAwMDExNSAwMDAwMCBuIAowMDAwMDAwMTg1IDAwMDAwIG4gCjAwMDAwMDAzMTEgMDAwMDAgbiAKdHJhaWxlcgo8PCAvU2l6ZSA2IC9Sb290IDEgMCBSID4+CnN0YXJ0eHJlZgo0MjAKJSVFT0YK";

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
    call: "chat.send with plugins (file-parser, context-compression) and a PDF",
    async run(c) {
      const result = await sdk(c).chat.send({
        chatRequest: {
          model: c.model,
          plugins: [
            { id: "file-parser", pdf: { engine: "pdf-text" } },
            { id: "context-compression", engine: "middle-out" },
          ],
          messages: [
            {
              role: "user",
              content: [
                { type: "text", text: "Summarise the notes" },
                {
                  type: "file",
                  file: { filename: "notes.pdf", fileData: `data:application/pdf;base64,${PDF}` },
                },
              ],
            },
          ],
        },
      });
      if (!("choices" in result)) throw new Error("expected a ChatResult");
      expect(textOf(result.choices[0]?.message.content)).toContain("Echo: ");
      // The provider got the PDF's text, not the PDF, and no plugin field (each format's own shape).
      const sent = JSON.stringify(c.fake.requests().at(-1)?.body);
      expect(sent).toContain("quarterly report: revenue up");
      expect(sent).not.toContain(PDF.slice(0, 40));
      expect(sent).not.toContain("plugins");
      expectServedBy(c);
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
