import { z } from "zod";

// OpenRouter's model object, as both model lists render it (the edge's per-key list and the keys app's
// catalogue, one builder in @gw/catalog): each app registers it under its own id and description.

const price = z.string().meta({ description: "USD, decimal string", example: "0.00000015" });

export const openRouterModelObject = z.object({
  id: z.string().meta({ example: "openai/gpt-4o-mini" }),
  canonical_slug: z.string(),
  object: z.literal("model"),
  owned_by: z.string(),
  name: z.string(),
  created: z.number().int(),
  description: z.string(),
  context_length: z.number().int(),
  architecture: z.object({
    modality: z.string().meta({ example: "text+image->text" }),
    input_modalities: z.array(z.string()),
    output_modalities: z.array(z.string()),
    tokenizer: z.string(),
    instruct_type: z.null(),
  }),
  pricing: z
    .object({
      prompt: price,
      completion: price,
      request: price,
      image: price,
      input_cache_read: price,
      input_cache_write: price,
      internal_reasoning: price,
      audio: price.optional().meta({
        description:
          "USD per input audio token, where audio is priced apart from text (absent: at the prompt price).",
      }),
    })
    .meta({
      description:
        'USD per token (per request, per image), decimal strings as OpenRouter\'s; "0": no charge.',
    }),
  top_provider: z.object({
    context_length: z.number().int(),
    max_completion_tokens: z.number().int().nullable(),
    is_moderated: z.boolean(),
  }),
  per_request_limits: z.null(),
  supported_parameters: z.array(z.string()),
  default_parameters: z.null(),
  supported_voices: z.null(),
  links: z.object({ details: z.string().meta({ description: "The model's endpoints (path)." }) }),
});
