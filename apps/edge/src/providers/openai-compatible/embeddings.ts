import { usageFromWire } from "../../canonical/wire.js";
import type { EmbedDialect } from "../embed-exchange.js";
import { networkFailure } from "../failure.js";

export const EMBEDDINGS_PATH = "/embeddings";

/**
 * OpenAI's embeddings API. Floats are always asked for: the client surface encodes base64 itself,
 * so every provider's vectors can be rendered either way.
 */
export function openAiEmbedDialect(headers: Record<string, string>): EmbedDialect {
  return {
    request: (call) => ({
      path: EMBEDDINGS_PATH,
      headers,
      body: JSON.stringify({
        model: call.upstreamModel,
        input: call.input,
        encoding_format: "float",
        ...(call.dimensions === undefined ? {} : { dimensions: call.dimensions }),
        ...(call.user === undefined ? {} : { user: call.user }),
      }),
    }),
    parse: (json) => {
      const body = json as {
        data?: { index?: number; embedding?: unknown }[];
        usage?: { prompt_tokens?: number };
      };
      if (!Array.isArray(body?.data))
        return networkFailure("protocol", "the provider returned malformed embeddings");
      const vectors: number[][] = [];
      for (const [position, entry] of body.data.entries()) {
        if (!Array.isArray(entry.embedding))
          return networkFailure("protocol", "the provider returned a non-float embedding");
        vectors[typeof entry.index === "number" ? entry.index : position] = entry.embedding as number[];
      }
      const usage = usageFromWire(body.usage ? { completion_tokens: 0, ...body.usage } : undefined);
      return { vectors, usage };
    },
  };
}
