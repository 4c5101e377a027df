import { ANY_KEY_SECURITY, dataOf, errorResponses, json, type ZodOpenApiPathsObject } from "@gw/openapi";
import { z } from "zod";
import type { GenerationJson } from "./records/view.js";
import { generationQuery } from "./routes/get-generation.js";

// The routes of apps/generations (app.ts), as the edge forwards them. The response schema is tied to
// the view's type by `satisfies`: a field added to the view and not here fails the typecheck.

const usd = z.number().meta({ description: "USD" });

const attemptSchema = z.object({
  provider: z.string(),
  model: z.string(),
  status: z.number().int().meta({ description: "The upstream's HTTP status (0: no answer)." }),
  latency_ms: z.number(),
  is_byok: z.boolean(),
});

export const generationSchema = z
  .object({
    id: z.string().meta({ description: "The generation id (the X-Generation-Id header of the answer)." }),
    model: z.string(),
    provider: z.string(),
    created_at: z.string().meta({ format: "date-time" }),
    latency_ms: z.number(),
    usage: z.object({
      prompt_tokens: z.number().int(),
      completion_tokens: z.number().int(),
      total_tokens: z.number().int(),
      cost: usd,
      is_byok: z.boolean(),
      estimated: z.boolean().meta({ description: "True when the provider sent no usage and we counted." }),
      prompt_tokens_details: z.object({
        cached_tokens: z.number().int(),
        cache_write_tokens: z.number().int(),
      }),
      completion_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
      cost_details: z.object({
        upstream_inference_cost: usd,
        upstream_inference_prompt_cost: usd,
        upstream_inference_completions_cost: usd,
      }),
    }),
    api_type: z.string(),
    streamed: z.boolean(),
    cancelled: z.boolean(),
    finish_reason: z.string().nullable(),
    native_finish_reason: z.string().nullable(),
    upstream_id: z.string().nullable(),
    generation_time_ms: z.number(),
    key_hash: z.string(),
    attempts: z.array(attemptSchema),
  })
  .meta({ id: "Generation" }) satisfies z.ZodType<GenerationJson>;

export const generationsOpenApiPaths: ZodOpenApiPathsObject = {
  "/api/v1/generation": {
    get: {
      operationId: "getGeneration",
      tags: ["generations"],
      summary: "A generation's record: tokens, cost, latency and every attempt (any key of the account)",
      security: ANY_KEY_SECURITY,
      requestParams: { query: generationQuery },
      responses: {
        "200": { description: "The record.", content: json(dataOf(generationSchema)) },
        ...errorResponses("openai", [400, 401, 404, 503]),
      },
    },
  },
};
