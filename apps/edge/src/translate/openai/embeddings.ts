import { parseOrThrow } from "@gw/http";
import { picoToUsdNumber } from "@gw/money";
import { z } from "zod";
import { chatRequestSchema } from "../../canonical/chat-request.js";
import type { EmbedRequest } from "../../canonical/embed-request.js";
import type { ResponseIdentity } from "./chat-response.js";
import type { UsageRender } from "./usage.js";

const token = z.number().int().nonnegative();
const MAX_INPUTS = 2048;

/** POST /v1/embeddings as OpenAI validates it (plus the gateway's routing fields). */
export const embeddingsRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([
    z.string().min(1),
    z.array(z.string().min(1)).min(1).max(MAX_INPUTS),
    z.array(token).min(1),
    z.array(z.array(token).min(1)).min(1).max(MAX_INPUTS),
  ]),
  encoding_format: z.enum(["float", "base64"]).optional(),
  dimensions: z.number().int().positive().optional(),
  user: z.string().optional(),
  models: chatRequestSchema.shape.models,
  provider: chatRequestSchema.shape.provider,
});

export type EmbeddingsRequest = z.infer<typeof embeddingsRequestSchema>;

export function parseEmbeddingsRequest(body: unknown): EmbeddingsRequest {
  return parseOrThrow(embeddingsRequestSchema, body);
}

/** The request in canonical form: `input` always a list (a flat token array is one input). */
export function embedRequestFromOpenAi(request: EmbeddingsRequest): EmbedRequest {
  const { input } = request;
  const inputs =
    typeof input === "string"
      ? [input]
      : input.every((entry) => typeof entry === "number")
        ? [input as number[]]
        : (input as (string | number[])[]);
  return {
    model: request.model,
    models: request.models,
    provider: request.provider,
    input: inputs,
    dimensions: request.dimensions,
    user: request.user,
  };
}

/** Raw little-endian float32 bytes in base64: what openai-node decodes into a Float32Array. */
export function float32Base64(values: readonly number[]): string {
  const bytes = Buffer.alloc(values.length * 4);
  for (const [index, value] of values.entries()) bytes.writeFloatLE(value, index * 4);
  return bytes.toString("base64");
}

/** Vectors as OpenAI's list object, in the encoding the client asked for, with usage and cost. */
export function renderEmbeddings(encoding: "float" | "base64") {
  return (
    vectors: number[][],
    identity: ResponseIdentity,
    { usage, chargedPico, estimated, isByok }: UsageRender,
  ) => ({
    id: identity.generationId,
    object: "list",
    data: vectors.map((vector, index) => ({
      object: "embedding",
      index,
      embedding: encoding === "base64" ? float32Base64(vector) : vector,
    })),
    model: identity.model,
    provider: identity.provider,
    usage: {
      prompt_tokens: usage.promptTokens,
      total_tokens: usage.promptTokens,
      cost: picoToUsdNumber(chargedPico),
      is_byok: isByok,
      estimated,
    },
  });
}
