import { z } from "zod";
import type { ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from "zod-openapi";

// The three error bodies the gateway renders (packages/errors/src/bodies.ts): one catalogue of errors,
// each surface in its own provider's shape. Management and /v1 normalised routes use OpenRouter's envelope.

export const openAiErrorSchema = z
  .object({
    error: z.object({
      message: z.string(),
      type: z.string().meta({ description: "The error kind, e.g. invalid_request_error, rate_limit_error." }),
      code: z.number().int().meta({
        description: "The HTTP status as a number (OpenRouter's contract, which its SDK validates).",
      }),
      metadata: z.record(z.string(), z.unknown()).optional().meta({
        description:
          "Details; `reason` is the gateway's machine-readable code (key_disabled, quota_exceeded, model_not_found, …).",
      }),
    }),
  })
  .meta({ id: "OpenAiError", description: "The gateway's error envelope (OpenRouter's shape)." });

export const anthropicErrorSchema = z
  .object({
    type: z.literal("error"),
    error: z.object({ type: z.string(), message: z.string(), code: z.string().optional() }),
    request_id: z.string().optional(),
  })
  .meta({ id: "AnthropicError", description: "Errors of the Anthropic surface, in Anthropic's shape." });

export const geminiErrorSchema = z
  .object({
    error: z.object({
      code: z.number().int(),
      message: z.string(),
      status: z.string().meta({ description: "The gRPC-style status name, e.g. INVALID_ARGUMENT." }),
      type: z.string(),
    }),
  })
  .meta({ id: "GeminiError", description: "Errors of the Gemini surface, in Google's shape." });

/** Which error body a route renders. */
export type ErrorShape = "openai" | "anthropic" | "gemini";

const SHAPES = { openai: openAiErrorSchema, anthropic: anthropicErrorSchema, gemini: geminiErrorSchema };

const STATUS_TEXT: Record<number, string> = {
  400: "The request is malformed or a field is invalid (the field is named).",
  401: "No credential, or one that is unknown, revoked or expired.",
  402: "Not enough credits or key limit left for the request's worst-case cost.",
  403: "The credential may not call this route, or the model or provider is outside its allow-lists.",
  404: "Not found, or not visible to the caller's account.",
  408: "The request body did not arrive in time.",
  409: "The request conflicts with the resource's state.",
  413: "The request body is over the size limit.",
  429: "A rate limit was hit; Retry-After says when to retry.",
  500: "Unexpected failure inside the gateway.",
  502: "The upstream provider or an owning service answered with an error.",
  503: "A dependency is unavailable; retry later.",
  504: "The upstream provider did not answer in time.",
};

export type ErrorStatus = keyof typeof STATUS_TEXT;

/** The error responses of one route, each with the route's own error body. */
export function errorResponses(shape: ErrorShape, statuses: readonly number[]): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const status of statuses) {
    const response: ZodOpenApiResponseObject = {
      description: STATUS_TEXT[status] ?? "Error.",
      content: { "application/json": { schema: SHAPES[shape] } },
    };
    responses[`${status}` as `${4 | 5}${string}`] = response;
  }
  return responses;
}
