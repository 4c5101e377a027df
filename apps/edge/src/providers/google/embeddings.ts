import { untranslatable } from "../../translate/untranslatable.js";
import type { EmbedDialect } from "../embed-exchange.js";
import { networkFailure } from "../failure.js";
import { geminiPath } from "./api.js";

/**
 * Gemini's batchEmbedContents (one call for any number of inputs). Gemini reports no token usage
 * for embeddings, so the gateway counts them itself (marked estimated).
 */
export function geminiEmbedDialect(headers: Record<string, string>): EmbedDialect {
  return {
    request: (call) => ({
      path: geminiPath(call.upstreamModel, "batchEmbedContents"),
      headers,
      body: JSON.stringify({
        requests: call.input.map((input, index) => ({
          model: `models/${call.upstreamModel}`,
          content: {
            parts: [
              {
                text:
                  typeof input === "string"
                    ? input
                    : untranslatable(`input[${index}]`, "Gemini embeds text, not token arrays"),
              },
            ],
          },
          ...(call.dimensions === undefined ? {} : { outputDimensionality: call.dimensions }),
          ...(call.taskType === undefined ? {} : { taskType: call.taskType }),
          ...(call.title === undefined ? {} : { title: call.title }),
        })),
      }),
    }),
    parse: (json) => {
      const body = json as { embeddings?: { values?: unknown }[] };
      if (!Array.isArray(body?.embeddings))
        return networkFailure("protocol", "the provider returned malformed embeddings");
      const vectors = body.embeddings.map((entry) =>
        Array.isArray(entry.values) ? (entry.values as number[]) : [],
      );
      return { vectors, usage: undefined };
    },
  };
}
