import type { EdgeDeps } from "../deps.js";
import { resolveApiKey } from "../middleware/api-key.js";
import { embeddingsAvailability } from "../pipeline/availability.js";
import { serveEmbeddings } from "../pipeline/embed.js";
import { startRequest } from "../pipeline/serve.js";
import { nativeModelId } from "../planner/native-model.js";
import type { EdgeRuntime } from "../runtime.js";
import { embedRequestFromGemini, renderEmbedContent } from "../translate/gemini/embed.js";
import { translating } from "../translate/untranslatable.js";
import type { GeminiMethod } from "./gemini.js";

/** `:embedContent` and `:batchEmbedContents` (what @google/genai's embedContent calls) for geminiRoute. */
export function geminiEmbedMethods(deps: EdgeDeps, runtime: EdgeRuntime): Record<string, GeminiMethod> {
  const availability = embeddingsAvailability(deps.providers);
  const method =
    (batch: boolean): GeminiMethod =>
    async (request, response, model) => {
      const start = startRequest(runtime, response);
      const principal = await resolveApiKey(deps.principals, request);
      const id = nativeModelId(deps.catalog.require(), model, ["google"]);
      const embed = translating(() => embedRequestFromGemini(request.body, id, batch));
      await serveEmbeddings(
        deps,
        runtime,
        {
          start,
          principal,
          request: embed,
          availability,
          apiType: "embeddings",
          render: renderEmbedContent(batch),
        },
        response,
      );
    };
  return { embedContent: method(false), batchEmbedContents: method(true) };
}
