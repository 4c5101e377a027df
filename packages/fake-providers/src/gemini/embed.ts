import { isRecord } from "../core/content.js";
import { embedText } from "../core/embedding.js";
import { respondJson } from "../core/respond.js";
import type { ExchangeContext, ProviderError } from "../core/server.js";
import { GEMINI_JSON, sendGeminiError } from "./errors.js";
import { BATCH_EMBED_REQUEST, EMBED_CONTENT_REQUEST, normalizeFields } from "./fields.js";
import { partsText } from "./request.js";

const NATIVE_DIMENSIONS: Record<string, number> = {
  "text-embedding-004": 768,
  "embedding-001": 768,
  "gemini-embedding-001": 3072,
};

function dimensionsFor(model: string, requested: unknown): number | ProviderError {
  const native = NATIVE_DIMENSIONS[model] ?? 768;
  if (requested === undefined) return native;
  if (!Number.isInteger(requested) || (requested as number) < 1 || (requested as number) > native) {
    return { status: 400, message: `* outputDimensionality: must be between 1 and ${native}\n` };
  }
  return requested as number;
}

function embedOne(model: string, request: unknown): { values: number[] } | ProviderError {
  if (!isRecord(request) || !isRecord(request.content)) {
    return { status: 400, message: "* EmbedContentRequest.content: content is not specified\n" };
  }
  const text = partsText(request.content.parts);
  if (text === "")
    return { status: 400, message: "* EmbedContentRequest.content: contains an empty Part.\n" };
  const size = dimensionsFor(model, request.outputDimensionality);
  if (typeof size !== "number") return size;
  return { values: embedText(text, size) };
}

export async function handleEmbedContent(ctx: ExchangeContext, model: string): Promise<void> {
  const normalized = normalizeFields(ctx.body, EMBED_CONTENT_REQUEST);
  if ("status" in normalized) return sendGeminiError(ctx, normalized);
  const embedding = embedOne(model, normalized.value);
  if ("status" in embedding) return sendGeminiError(ctx, embedding);
  await respondJson(ctx, 200, { embedding }, GEMINI_JSON);
}

/** The SDK's `models.embedContent()` always calls this, even for one input. */
export async function handleBatchEmbedContents(ctx: ExchangeContext, model: string): Promise<void> {
  const normalized = normalizeFields(ctx.body, BATCH_EMBED_REQUEST);
  if ("status" in normalized) return sendGeminiError(ctx, normalized);
  const body = normalized.value;
  const requests = isRecord(body) && Array.isArray(body.requests) ? body.requests : null;
  if (requests === null || requests.length === 0) {
    return sendGeminiError(ctx, { status: 400, message: "* BatchEmbedContentsRequest.requests: is empty\n" });
  }
  const embeddings = [];
  for (const request of requests) {
    const embedding = embedOne(model, request);
    if ("status" in embedding) return sendGeminiError(ctx, embedding);
    embeddings.push(embedding);
  }
  await respondJson(ctx, 200, { embeddings }, GEMINI_JSON);
}
