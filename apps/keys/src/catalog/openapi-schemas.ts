import type { OpenRouterModel, OpenRouterModelList } from "@gw/catalog";
import { openRouterModelObject } from "@gw/openapi";
import { z } from "zod";
import type { EndpointJson, PricingJson } from "./views.js";

// Response schemas of the catalogue's routes, for the OpenAPI document (openapi.ts). The routes render
// their answers with the view functions; `satisfies` ties each schema to the view's type, so a field
// added to a view and not here (or typed differently) fails the typecheck.

const usd = z.number().meta({ description: "USD" });

export const pricingSchema = z
  .object({
    prompt: usd,
    completion: usd,
    request: usd,
    image: usd,
    input_cache_read: usd,
    input_cache_write: usd,
    internal_reasoning: usd,
    audio: usd
      .optional()
      .meta({ description: "Per input audio token, where audio is priced apart from text." }),
  })
  .meta({
    id: "Pricing",
    description:
      "USD per token (prompt, completion, cache read and write, reasoning), per request and per image.",
  }) satisfies z.ZodType<PricingJson>;

export const modelSchema = openRouterModelObject.meta({
  id: "CatalogModel",
  description: "OpenRouter's model object; prices of the model's primary endpoint.",
}) satisfies z.ZodType<OpenRouterModel>;

export const modelListSchema = z.object({
  object: z.literal("list"),
  data: z.array(modelSchema),
  total_count: z.number().int(),
  links: z.object({ next: z.null() }),
}) satisfies z.ZodType<OpenRouterModelList>;

export const endpointSchema = z
  .object({
    provider_id: z.string(),
    provider_name: z.string(),
    model: z.string(),
    context_length: z.number().int(),
    max_completion_tokens: z.number().int(),
    pricing: pricingSchema,
    quantization: z.string().nullable(),
    is_zdr: z.boolean(),
    supported_parameters: z.array(z.string()),
    input_modalities: z.array(z.string()).meta({
      description:
        "What the endpoint's model reads: text, image, file (PDF) and audio, as OpenRouter names them.",
    }),
    status: z.number().nullable(),
    uptime_last_30m: z.number().nullable(),
    latency_last_30m: z.object({ p50: z.number(), p90: z.number(), p99: z.number() }).nullable(),
    throughput_last_30m: z.number().nullable(),
  })
  .meta({ id: "ModelEndpoint" }) satisfies z.ZodType<EndpointJson>;
