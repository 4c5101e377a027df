import {
  ANY_KEY_SECURITY,
  dataOf,
  errorResponses,
  json,
  MANAGEMENT_SECURITY,
  type ZodOpenApiPathsObject,
} from "@gw/openapi";
import { z } from "zod";
import type { ActivityItem } from "./activity/query.js";
import type { GenerationJson } from "./records/view.js";
import { activityQuery } from "./routes/activity.js";
import { generationQuery } from "./routes/get-generation.js";
import { type GenerationPage, listGenerationsQuery } from "./routes/list-generations.js";

// The routes of apps/generations (app.ts), as the edge forwards them. The response schema is tied to
// the view's type by `satisfies`: a field added to the view and not here fails the typecheck.

const usd = z.number().meta({ description: "USD" });

/** OpenRouter fields for features the gateway does not have (or does not count): always null. */
const notHere = z.null().meta({
  description:
    "Always null: no moderation, presets, web fetch plugin, auto-router or service tiers; media not counted.",
});

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
        audio_tokens: z
          .number()
          .int()
          .optional()
          .meta({ description: "Audio in the prompt, where reported." }),
        image_tokens: z
          .number()
          .int()
          .optional()
          .meta({ description: "Images in the prompt, where reported apart (Gemini)." }),
        document_tokens: z
          .number()
          .int()
          .optional()
          .meta({ description: "Documents in the prompt, where reported apart (Gemini)." }),
      }),
      completion_tokens_details: z.object({
        reasoning_tokens: z.number().int(),
        audio_tokens: z
          .number()
          .int()
          .optional()
          .meta({ description: "Audio the model produced, where reported." }),
      }),
      cost_details: z.object({
        upstream_inference_cost: usd,
        upstream_inference_prompt_cost: usd,
        upstream_inference_completions_cost: usd,
        upstream_inference_audio_cost: usd.optional().meta({
          description:
            "Audio: the prompt's audio tokens at the audio price (of the prompt cost) plus the audio the model spoke at the audio output price (of the completions cost).",
        }),
        upstream_inference_image_cost: usd
          .optional()
          .meta({ description: "Of the prompt cost: images at the per-image price." }),
        upstream_inference_web_search_cost: usd.optional().meta({
          description:
            "The web plugin's searches (the provider's own or the search API's), part of cost and not of upstream_inference_cost; only when one was billed.",
        }),
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
    // OpenRouter's flat fields (records/view.ts says where each comes from).
    tokens_prompt: z.number().int(),
    tokens_completion: z.number().int(),
    native_tokens_prompt: z.number().int(),
    native_tokens_completion: z.number().int(),
    native_tokens_reasoning: z.number().int(),
    native_tokens_cached: z.number().int(),
    total_cost: usd,
    upstream_inference_cost: usd,
    is_byok: z.boolean(),
    latency: z.number().meta({ description: "Milliseconds (latency_ms)." }),
    generation_time: z.number().meta({ description: "Milliseconds (generation_time_ms)." }),
    cache_discount: z.number().nullable().meta({
      description:
        "USD prompt caching saved against the plain prompt price (negative when cache writes cost more than input); null when the provider's cache was neither read nor written.",
    }),
    provider_name: z.string().meta({ description: "The provider's id." }),
    app_id: z.number().int().nullable().meta({ description: "The app its HTTP-Referer's origin names." }),
    origin: z.string().meta({ description: "The HTTP-Referer's origin; empty when none was sent." }),
    http_referer: z.string().nullable().meta({ description: "HTTP-Referer (origin and path)." }),
    app_title: z.string().nullable().meta({ description: "X-Title (or X-OpenRouter-Title)." }),
    error: z
      .object({
        code: z.number().int().meta({ description: "The HTTP status the client was answered with." }),
        reason: z.string().nullable().meta({
          description: "The gateway's reason code (error.metadata.reason), or the provider's own code.",
        }),
        message: z.string(),
      })
      .nullable()
      .meta({
        description:
          "Why a failed generation (finish_reason `error`) failed, as the client was told; for a stream broken after its first byte, its in-band error. Null when it did not fail or the client cancelled it.",
      }),
    data_region: z.literal("global").meta({ description: "The gateway routes in one region." }),
    external_user: z.string().nullable().meta({ description: "The request's `user`; null when not sent." }),
    user_agent: z.string().nullable().meta({ description: "The caller's User-Agent; null when not sent." }),
    workspace_id: z.string().meta({ description: "The account id (as on the key object)." }),
    provider_responses: z
      .array(
        z.object({
          provider_name: z.string().meta({ description: "The provider's id." }),
          model_permaslug: z.string(),
          status: z.number().int().nullable().meta({ description: "Null when no answer arrived." }),
          latency: z.number().meta({ description: "Milliseconds." }),
          is_byok: z.boolean(),
        }),
      )
      .meta({ description: "One per attempt, fallbacks included (OpenRouter's ProviderResponse)." }),
    moderation_latency: notHere,
    native_tokens_completion_images: notHere,
    num_fetches: notHere,
    num_input_audio_prompt: notHere,
    num_media_completion: notHere,
    num_media_prompt: notHere,
    num_search_results: z.number().int().nullable().meta({
      description:
        "The web plugin's billed searches (native: the provider's own) or results (exa: the operator's search API); null without a billed search.",
    }),
    preset_id: notHere,
    router: notHere,
    service_tier: notHere,
    web_search_engine: z.enum(["native", "exa"]).nullable().meta({
      description: "Which search served the web plugin; null without a billed search.",
    }),
  })
  .meta({ id: "Generation" }) satisfies z.ZodType<GenerationJson>;

const activityItemSchema = z
  .object({
    date: z.string().meta({ description: "UTC day, YYYY-MM-DD", example: "2026-11-23" }),
    model: z.string(),
    model_permaslug: z.string(),
    endpoint_id: z.string().meta({ description: "provider:model (the catalogue has no endpoint ids)." }),
    provider_name: z.string().meta({ description: "The provider's id." }),
    usage: usd.meta({ description: "What the account's credits were charged, USD." }),
    byok_usage_inference: usd.meta({
      description: "The provider's price of requests on the account's own keys.",
    }),
    requests: z.number().int(),
    prompt_tokens: z.number().int(),
    completion_tokens: z.number().int(),
    reasoning_tokens: z.number().int(),
  })
  .meta({ id: "ActivityItem" }) satisfies z.ZodType<ActivityItem>;

const generationPageSchema = z
  .object({
    data: z.array(generationSchema),
    next_cursor: z.string().nullable().meta({
      description: "Pass as `cursor` for the next (older) page; null on the last page.",
    }),
  })
  .meta({ id: "GenerationPage" }) satisfies z.ZodType<GenerationPage>;

export const generationsOpenApiPaths: ZodOpenApiPathsObject = {
  "/api/v1/activity": {
    get: {
      operationId: "getActivity",
      tags: ["generations"],
      summary: "The account's requests, tokens and spend per UTC day, model and provider (last 30 days)",
      description:
        "From the rollup the usage consumer keeps with each record; today (UTC) included. Filters: one day, " +
        "one API key, one app. Another account's activity is never counted.",
      security: MANAGEMENT_SECURITY,
      requestParams: { query: activityQuery },
      responses: {
        "200": {
          description: "The activity.",
          content: json(z.object({ data: z.array(activityItemSchema) })),
        },
        ...errorResponses("openai", [400, 401, 403, 503]),
      },
    },
  },
  "/api/v1/generations": {
    get: {
      operationId: "listGenerations",
      tags: ["generations"],
      summary: "The account's recent generations, newest first (management key)",
      description:
        "Each item is the record GET /api/v1/generation returns (attempts included; the key is named by " +
        "its hash, as the keys API shows it). Keyset pagination: a page's next_cursor resumes after its " +
        "last row, so requests recorded meanwhile never shift or repeat rows. Filters: one API key, one " +
        "model, a time range. Records arrive through the usage topic, normally within a second. Another " +
        "account's generations are never listed.",
      security: MANAGEMENT_SECURITY,
      requestParams: { query: listGenerationsQuery },
      responses: {
        "200": { description: "A page of generations.", content: json(generationPageSchema) },
        ...errorResponses("openai", [400, 401, 403, 503]),
      },
    },
  },
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
