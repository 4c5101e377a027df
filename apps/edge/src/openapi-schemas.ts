import { openRouterModelObject } from "@gw/openapi";
import { z } from "zod";
import type { ModelEntry } from "./translate/openai/models.js";
import type { KeyInfo } from "./usage/key-info.js";

// Response schemas of the edge's routes for the OpenAPI document. The inference answers are the
// providers' own shapes (rendered by translate/), described here as far as clients rely on them and
// open to more fields (`looseObject`), as the providers' own documents are. Views with a TypeScript
// type are tied to it by `satisfies`, so the two cannot drift apart unnoticed.

const usd = z.number().meta({ description: "USD" });
const count = z.number().int().nonnegative();

export const chatUsageSchema = z
  .looseObject({
    prompt_tokens: count,
    completion_tokens: count,
    total_tokens: count,
    cost: usd.meta({ description: "What the request was charged, USD." }),
    estimated: z.boolean().optional().meta({ description: "True when the provider sent no usage." }),
    prompt_tokens_details: z.looseObject({ cached_tokens: count }).optional(),
    completion_tokens_details: z.looseObject({ reasoning_tokens: count }).optional(),
  })
  .meta({ id: "ChatUsage" });

export const chatCompletionSchema = z
  .looseObject({
    id: z.string().meta({ description: "The generation id (also the X-Generation-Id header)." }),
    object: z.literal("chat.completion"),
    created: z.number().int(),
    model: z.string(),
    provider: z.string().optional(),
    choices: z.array(
      z.looseObject({
        index: z.number().int(),
        message: z.looseObject({
          role: z.literal("assistant"),
          content: z.string().nullable(),
          tool_calls: z.array(z.looseObject({ id: z.string(), type: z.literal("function") })).optional(),
        }),
        finish_reason: z.string().nullable(),
      }),
    ),
    usage: chatUsageSchema,
  })
  .meta({ id: "ChatCompletion" });

export const embeddingsSchema = z
  .looseObject({
    object: z.literal("list"),
    model: z.string(),
    data: z.array(
      z.looseObject({
        object: z.literal("embedding"),
        index: z.number().int(),
        embedding: z.union([z.array(z.number()), z.string().meta({ description: "base64 float32" })]),
      }),
    ),
    usage: z.looseObject({ prompt_tokens: count, total_tokens: count, cost: usd.optional() }),
  })
  .meta({ id: "Embeddings" });

export const anthropicMessageSchema = z
  .looseObject({
    id: z.string(),
    type: z.literal("message"),
    role: z.literal("assistant"),
    model: z.string(),
    content: z.array(z.looseObject({ type: z.string() })),
    stop_reason: z.string().nullable(),
    stop_sequence: z.string().nullable(),
    usage: z.looseObject({
      input_tokens: count,
      output_tokens: count,
      cache_creation_input_tokens: count,
      cache_read_input_tokens: count,
      cost: usd,
      estimated: z.boolean(),
    }),
  })
  .meta({ id: "AnthropicMessage" });

export const messageBatchSchema = z
  .looseObject({
    id: z.string(),
    type: z.literal("message_batch"),
    processing_status: z.enum(["in_progress", "canceling", "ended"]),
    request_counts: z.object({
      processing: count,
      succeeded: count,
      errored: count,
      canceled: count,
      expired: count,
    }),
    created_at: z.string().nullable(),
    expires_at: z.string().nullable(),
    ended_at: z.string().nullable(),
    cancel_initiated_at: z.string().nullable(),
    archived_at: z.null(),
    results_url: z.string().nullable(),
  })
  .meta({ id: "MessageBatch" });

export const messageBatchListSchema = z.looseObject({
  data: z.array(messageBatchSchema),
  has_more: z.boolean(),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
});

export const geminiGenerateSchema = z
  .looseObject({
    candidates: z.array(z.looseObject({ content: z.looseObject({}), finishReason: z.string().optional() })),
    usageMetadata: z.looseObject({
      promptTokenCount: count,
      candidatesTokenCount: count.optional(),
      totalTokenCount: count,
    }),
    modelVersion: z.string().optional(),
  })
  .meta({ id: "GeminiGenerateContentResponse" });

export const modelEntrySchema = openRouterModelObject.meta({
  id: "Model",
  description:
    "OpenRouter's model object (with OpenAI's object and owned_by); prices of the cheapest endpoint the key may use.",
}) satisfies z.ZodType<ModelEntry>;

/** OpenRouter's list envelope: the whole list is one page. */
export const openRouterModelListSchema = z
  .object({
    object: z.literal("list"),
    data: z.array(modelEntrySchema),
    total_count: z.number().int(),
    links: z.object({ next: z.null() }),
  })
  .meta({ title: "OpenAI / OpenRouter" });

/** The three dialects of `GET /v1/models`: OpenAI's list, Anthropic's page, Gemini's list. */
export const modelListSchema = z.union([
  openRouterModelListSchema,
  z
    .looseObject({
      data: z.array(z.looseObject({ type: z.literal("model"), id: z.string() })),
      has_more: z.boolean(),
    })
    .meta({ title: "Anthropic (anthropic-version header)" }),
  z
    .looseObject({ models: z.array(z.looseObject({ name: z.string() })) })
    .meta({ title: "Gemini (/v1beta or x-goog-api-key)" }),
]);

const windowUsd = { usage: usd, usage_daily: usd, usage_weekly: usd, usage_monthly: usd };

export const keyInfoSchema = z
  .object({
    label: z.string(),
    limit: usd.nullable(),
    limit_reset: z.enum(["daily", "weekly", "monthly"]).nullable(),
    limit_remaining: usd.nullable(),
    ...windowUsd,
    byok_usage: usd,
    byok_usage_daily: usd,
    byok_usage_weekly: usd,
    byok_usage_monthly: usd,
    include_byok_in_limit: z.boolean(),
    is_free_tier: z.boolean(),
    is_management_key: z.boolean(),
    is_provisioning_key: z.boolean(),
    expires_at: z.string().nullable(),
    rate_limit: z.object({ requests: z.number().int(), interval: z.string(), note: z.string() }),
    free_model_daily_requests: z.object({ limit: count, used: count, remaining: count }),
    workspace_id: z.string(),
    organization_id: z.string(),
    creator_user_id: z.null(),
    allowed_data_regions: z.array(z.string()),
  })
  .meta({ id: "KeyInfo" }) satisfies z.ZodType<KeyInfo>;

export const readinessSchema = z
  .object({
    status: z.enum(["ready", "not_ready", "draining"]),
    checks: z.record(z.string(), z.looseObject({ ok: z.boolean() })),
  })
  .meta({
    id: "Readiness",
    description:
      "Every check with its detail (the catalogue, the event backlog): 200 when all pass, else 503 with the same body; `draining` once the process is stopping.",
  });
