import { INPUT_MODALITIES, type InputModality, QUANTIZATIONS } from "@gw/catalog";
import { z } from "zod";

// Request and response bodies of the catalogue admin routes (/api/v1/admin/catalog/...). Prices are USD
// per token (per request / per image for those two) as decimal strings, as OpenRouter's model list
// writes them, so nothing is a binary float on its way to pico-dollars.

const usdString = z
  .string()
  .regex(/^\d+(\.\d+)?$/, "a non-negative decimal USD amount, e.g. 0.0000025")
  .max(40);
const modelId = z.string().min(3).max(300);
const providerId = z.string().min(1).max(64);
const tokens = z.number().int().min(1).max(10_000_000);

/** See price-guard.ts: without it, a change setting a price above the thresholds is refused (400). */
const confirmHighPrices = z.boolean().default(false).meta({
  description:
    "Confirms prices above $0.001 per token ($1,000 per 1M tokens) or $10 per request or image. Without it such a change is refused with a 400 whose error.metadata.reason is price_confirmation_required and whose error.metadata.high_prices lists them.",
});

export const importBody = z.object({
  format: z.enum(["litellm", "openrouter"]),
  /** The file's text as it is (duplicate keys are only visible in the text). */
  content: z.string().min(1).max(9_000_000),
  apply: z.boolean().default(false),
  skip_unknown_providers: z.boolean().default(false),
  provider: providerId.optional().meta({
    description: "OpenRouter format: the provider the models are served through (default openrouter).",
  }),
  confirm_high_prices: confirmHighPrices,
});

export const priceFields = {
  prompt: usdString.optional(),
  completion: usdString.optional(),
  request: usdString.optional(),
  image: usdString.optional(),
  input_cache_read: usdString.optional(),
  input_cache_write: usdString.optional(),
  internal_reasoning: usdString.optional(),
  audio: usdString.optional().meta({
    description:
      "Per input audio token, where the provider prices audio apart from text; 0: at the prompt price.",
  }),
};

/** What an endpoint's model reads, as OpenRouter's `input_modalities` names it; text always. */
export const inputModalities = z
  .array(z.enum(INPUT_MODALITIES as [InputModality, ...InputModality[]]))
  .min(1)
  .max(INPUT_MODALITIES.length)
  .refine((list) => list.includes("text"), { message: "must include text (every endpoint reads text)" })
  .refine((list) => new Set(list).size === list.length, { message: "must not repeat a modality" })
  .meta({
    description:
      "What the endpoint's model reads (text, image, file: PDFs, audio); replaces the endpoint's list. The planner prefers endpoints that take the media a request sends.",
  });

const hasPrice = (pricing: Record<string, string | undefined> | undefined) =>
  Object.values(pricing ?? {}).some((v) => v !== undefined);

export const setPriceBody = z
  .object({
    model: modelId,
    provider: providerId,
    pricing: z.object(priceFields).optional(),
    upstream_model: z.string().min(1).max(256).optional(),
    context_length: tokens.optional(),
    max_completion_tokens: tokens.optional(),
    input_modalities: inputModalities.optional(),
    confirm_high_prices: confirmHighPrices,
  })
  .refine((body) => hasPrice(body.pricing) || body.input_modalities !== undefined, {
    message: "name at least one price (or input_modalities)",
    path: ["pricing"],
  });

export const dataPolicyBody = z
  .object({
    model: modelId,
    provider: providerId,
    is_zdr: z.boolean().optional().meta({
      description: "Zero data retention at this endpoint under the operator's arrangement with the provider.",
    }),
    may_train_on_data: z.boolean().optional(),
    quantization: z
      .enum(QUANTIZATIONS as [string, ...string[]])
      .nullable()
      .optional()
      .meta({ description: "null: the provider publishes none (unknown)." }),
  })
  .refine(
    (body) =>
      body.is_zdr !== undefined || body.may_train_on_data !== undefined || body.quantization !== undefined,
    { message: "name at least one of is_zdr, may_train_on_data, quantization" },
  );

export const disableBody = z.object({
  model: modelId,
  provider: providerId.optional().meta({ description: "Absent: the whole model." }),
});

export const aliasBody = z.object({
  alias: modelId,
  model: modelId.nullable().meta({ description: "null removes an operator alias." }),
});

/**
 * A model-specific request limit (the spec's "Model-specific limits": per-model limits independent of
 * the account quota, 429 when exceeded): at most `requests` per `interval_seconds`, counted per account.
 */
export const modelLimitBody = z.object({
  model: modelId,
  limit: z
    .object({
      requests: z.number().int().min(1).max(1_000_000),
      interval_seconds: z.number().int().min(1).max(86_400),
    })
    .strict()
    .nullable()
    .meta({ description: "null removes the model's limit." }),
});

const diffValue: z.ZodType<unknown> = z.unknown();

export const highPriceSchema = z.object({
  target: z.string().meta({ description: "model@provider" }),
  price: z.string().meta({ description: "prompt, completion, …, as pricing names it" }),
  usd: z.string().meta({ description: "USD per token (per request / per image for those two)" }),
});

export const changeResultSchema = z.object({
  applied: z.boolean(),
  version: z.string(),
  version_before: z.string().nullable(),
  diff: z.array(z.object({ target: z.string(), field: z.string(), old: diffValue, new: diffValue })),
  high_prices: z.array(highPriceSchema).meta({
    description:
      "Prices the change sets above the thresholds (confirm_high_prices); a dry run lists them too.",
  }),
});

export const importResultSchema = changeResultSchema.extend({
  models: z.number().int(),
  skipped: z.array(z.string()),
});

const pricingView = z.object({
  prompt: z.string(),
  completion: z.string(),
  request: z.string(),
  image: z.string(),
  input_cache_read: z.string(),
  input_cache_write: z.string(),
  internal_reasoning: z.string(),
  audio: z.string(),
});

export const adminModelSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  context_length: z.number(),
  aliases: z.array(z.string()),
  model_limit: z.object({ requests: z.number(), interval_seconds: z.number() }).nullable(),
  endpoints: z.array(
    z.object({
      provider: z.string(),
      upstream_model: z.string(),
      context_length: z.number(),
      max_completion_tokens: z.number(),
      pricing: pricingView,
      quantization: z.string().nullable(),
      is_zdr: z.boolean(),
      may_train_on_data: z.boolean(),
      supported_parameters: z.array(z.string()),
      input_modalities: z.array(z.string()),
    }),
  ),
});

export const adminListSchema = z.object({
  version: z.string().nullable(),
  data: z.array(adminModelSchema),
  disabled: z.array(z.object({ model: z.string(), provider: z.string().nullable() })),
});

export const changesSchema = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      at: z.string(),
      actor: z.string(),
      action: z.string(),
      version_before: z.string().nullable(),
      version_after: z.string(),
      diff: changeResultSchema.shape.diff,
    }),
  ),
});
