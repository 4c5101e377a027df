import { isRecord } from "../core/content.js";
import { embedText, float32Base64 } from "../core/embedding.js";
import { respondJson } from "../core/respond.js";
import type { ExchangeContext, ProviderError } from "../core/server.js";
import { estimateTokens } from "../core/tokens.js";
import { modelNotFound, sendOpenAiError } from "./errors.js";
import { EMBEDDING_FIELDS, unrecognizedArguments } from "./fields.js";

// Native sizes of OpenAI's embedding models; other names (OpenAI-compatible hosts, the demo) get 1536.
const NATIVE_DIMENSIONS: Record<string, number> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
};
const DEFAULT_DIMENSIONS = 1536;

export async function handleEmbeddings(ctx: ExchangeContext): Promise<void> {
  const parsed = parseEmbeddingRequest(ctx.body);
  if ("status" in parsed) return sendOpenAiError(ctx, parsed);
  const { model, inputs, encoding, dimensions } = parsed;
  if (ctx.options.knownModels && !ctx.options.knownModels.includes(model)) {
    return sendOpenAiError(ctx, modelNotFound(model));
  }
  const native = NATIVE_DIMENSIONS[model] ?? DEFAULT_DIMENSIONS;
  if (dimensions !== undefined && model === "text-embedding-ada-002") {
    return sendOpenAiError(ctx, {
      status: 400,
      message: "This model does not support specifying dimensions.",
      param: "dimensions",
    });
  }
  if (dimensions !== undefined && (dimensions < 1 || dimensions > native)) {
    return sendOpenAiError(ctx, {
      status: 400,
      message: `dimensions must be between 1 and ${native} for ${model}`,
      param: "dimensions",
    });
  }
  const size = dimensions ?? native;
  const tokens = inputs.reduce((sum, input) => sum + input.tokens, 0);
  await respondJson(ctx, 200, {
    object: "list",
    data: inputs.map((input, index) => {
      const values = embedText(input.seed, size);
      return {
        object: "embedding",
        index,
        embedding: encoding === "base64" ? float32Base64(values) : values,
      };
    }),
    model,
    ...(ctx.steering.noUsage ? {} : { usage: { prompt_tokens: tokens, total_tokens: tokens } }),
  });
}

interface EmbeddingInput {
  /** What the vector is derived from: the text, or the token ids joined. */
  readonly seed: string;
  readonly tokens: number;
}

interface EmbeddingRequest {
  readonly model: string;
  readonly inputs: readonly EmbeddingInput[];
  readonly encoding: "float" | "base64";
  readonly dimensions: number | undefined;
}

function parseEmbeddingRequest(body: unknown): EmbeddingRequest | ProviderError {
  if (!isRecord(body)) return { status: 400, message: "The request body must be a JSON object." };
  const unrecognized = unrecognizedArguments(body, EMBEDDING_FIELDS);
  if (unrecognized) return unrecognized;
  if (typeof body.model !== "string" || body.model === "") {
    return { status: 400, message: "you must provide a model parameter" };
  }
  const inputs = parseInputs(body.input);
  if (inputs === null) {
    return {
      status: 400,
      message:
        "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
    };
  }
  const encoding = body.encoding_format ?? "float";
  if (encoding !== "float" && encoding !== "base64") {
    return {
      status: 400,
      message: `Invalid value for 'encoding_format': ${JSON.stringify(encoding)}`,
      param: "encoding_format",
    };
  }
  const dimensions = body.dimensions;
  if (dimensions !== undefined && dimensions !== null && !Number.isInteger(dimensions)) {
    return { status: 400, message: "dimensions must be an integer", param: "dimensions" };
  }
  return {
    model: body.model,
    inputs,
    encoding,
    dimensions: typeof dimensions === "number" ? dimensions : undefined,
  };
}

/** `input` is a string, strings, token ids or arrays of token ids; empty inputs are refused, as upstream. */
function parseInputs(input: unknown): EmbeddingInput[] | null {
  const isTokens = (v: unknown): v is number[] =>
    Array.isArray(v) && v.length > 0 && v.every((t) => Number.isInteger(t));
  if (typeof input === "string")
    return input === "" ? null : [{ seed: input, tokens: estimateTokens(input) }];
  if (isTokens(input)) return [{ seed: input.join(","), tokens: input.length }];
  if (!Array.isArray(input) || input.length === 0) return null;
  const inputs: EmbeddingInput[] = [];
  for (const item of input) {
    if (typeof item === "string" && item !== "") inputs.push({ seed: item, tokens: estimateTokens(item) });
    else if (isTokens(item)) inputs.push({ seed: item.join(","), tokens: item.length });
    else return null;
  }
  return inputs;
}
