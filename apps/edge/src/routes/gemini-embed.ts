import { resolveApiKey } from "../middleware/api-key.js";
import type { EdgeContext } from "../pipeline/edge-context.js";
import { serveEmbeddings } from "../pipeline/embed.js";
import { startRequest } from "../pipeline/serve.js";
import { nativeModelId } from "../planning/native-model.js";
import { embedRequestFromGemini, renderEmbedContent } from "../translate/gemini/embed.js";
import { translating } from "../translate/untranslatable.js";
import type { GeminiMethod } from "./gemini.js";

/** `:embedContent` and `:batchEmbedContents` (what @google/genai's embedContent calls) for geminiRoute. */
export function geminiEmbedMethods(context: EdgeContext): Record<string, GeminiMethod> {
  const method =
    (batch: boolean): GeminiMethod =>
    async (request, response, model) => {
      const start = startRequest(context, response);
      const principal = await resolveApiKey(context.principals, request);
      const id = nativeModelId(context.catalog.require(), model, ["google"]);
      const embed = translating(() => embedRequestFromGemini(request.body, id, batch));
      await serveEmbeddings(
        context,
        {
          start,
          principal,
          request: embed,
          apiType: "embeddings",
          render: renderEmbedContent(batch),
        },
        response,
      );
    };
  return { embedContent: method(false), batchEmbedContents: method(true) };
}
