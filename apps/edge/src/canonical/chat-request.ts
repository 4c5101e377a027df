import { parseOrThrow } from "@gw/http";
import { z } from "zod";
import { pluginsSchema, transformsSchema } from "./plugins.js";

const ROLES = ["system", "developer", "user", "assistant", "tool", "function"] as const;

const contentPart = z.looseObject({ type: z.string().min(1) });
const content = z.union([z.string(), z.array(contentPart), z.null()]);

const message = z
  .looseObject({
    role: z.enum(ROLES),
    content: content.optional(),
    name: z.string().optional(),
    tool_call_id: z.string().optional(),
    tool_calls: z.array(z.looseObject({})).optional(),
  })
  .superRefine((value, context) => {
    // Only an assistant turn that calls tools may leave its content out.
    if (value.role !== "assistant" && (value.content === undefined || value.content === null)) {
      context.addIssue({ code: "custom", path: ["content"], message: `required for role ${value.role}` });
    }
    if (value.role === "tool" && value.tool_call_id === undefined) {
      context.addIssue({ code: "custom", path: ["tool_call_id"], message: "required for role tool" });
    }
  });

const sortBy = z.enum(["price", "throughput", "latency"]);
// OpenRouter's percentile cutoffs for preferred_min_throughput (tokens/s) and preferred_max_latency (s).
const cutoff = z.number().nonnegative().finite();
const percentileCutoffs = z.strictObject({
  p50: cutoff.optional(),
  p75: cutoff.optional(),
  p90: cutoff.optional(),
  p99: cutoff.optional(),
});

const providerPreferences = z.strictObject({
  order: z.array(z.string().min(1)).optional(),
  only: z.array(z.string().min(1)).optional(),
  ignore: z.array(z.string().min(1)).optional(),
  allow_fallbacks: z.boolean().optional(),
  sort: z
    .union([sortBy, z.strictObject({ by: sortBy, partition: z.enum(["model", "none"]).optional() })])
    .optional(),
  preferred_min_throughput: z.union([cutoff, percentileCutoffs]).optional(),
  preferred_max_latency: z.union([cutoff, percentileCutoffs]).optional(),
  require_parameters: z.boolean().optional(),
  quantizations: z.array(z.string()).optional(),
  zdr: z.boolean().optional(),
  max_price: z
    .strictObject({
      prompt: z.number().nonnegative().optional(),
      completion: z.number().nonnegative().optional(),
      request: z.number().nonnegative().optional(),
    })
    .optional(),
  data_collection: z.enum(["allow", "deny"]).optional(),
});

const tokenCount = z.number().int().positive();

/**
 * The OpenAI chat request as the gateway accepts it. Known fields are checked so a bad body is a 400
 * naming the field; unknown fields are kept and passed to OpenAI-compatible upstreams unchanged.
 */
export const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(message).min(1),
  models: z.array(z.string().min(1)).max(16).optional(),
  provider: providerPreferences.optional(),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
  max_tokens: tokenCount.nullable().optional(),
  max_completion_tokens: tokenCount.nullable().optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  n: z.number().int().min(1).max(128).nullable().optional(),
  stop: z
    .union([z.string(), z.array(z.string()).max(4)])
    .nullable()
    .optional(),
  tools: z.array(z.looseObject({ type: z.string() })).optional(),
  user: z.string().optional(),
  // OpenRouter's plugins and transforms: served or refused by name (plugins.ts), never sent upstream.
  plugins: pluginsSchema.optional(),
  transforms: transformsSchema.optional(),
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;
export type ChatMessage = ChatRequest["messages"][number];
export type ProviderPreferences = NonNullable<ChatRequest["provider"]>;

/** A body that is missing (no JSON content type) or not an object fails as `body: …`. */
export function parseChatRequest(body: unknown): ChatRequest {
  return parseOrThrow(chatRequestSchema, body);
}

/** `max_completion_tokens` is preferred; `max_tokens` is its deprecated spelling. */
export function requestedMaxTokens(request: ChatRequest): number | undefined {
  return request.max_completion_tokens ?? request.max_tokens ?? undefined;
}

/**
 * The request as one endpoint is sent it: `max_tokens`/`max_completion_tokens` above the endpoint's
 * output cap are lowered to the cap (OpenRouter's documented ceiling for `max_tokens` is the context
 * length minus the prompt, not the provider's output cap, and clients such as `@ai-sdk/anthropic` ask
 * for more than a model writes). `cap` 0 = not published: nothing is changed.
 */
export function withinOutputCap(request: ChatRequest, cap: number): ChatRequest {
  if (cap <= 0) return request;
  const over = (value: number | null | undefined) => typeof value === "number" && value > cap;
  if (!over(request.max_tokens) && !over(request.max_completion_tokens)) return request;
  return {
    ...request,
    ...(over(request.max_tokens) ? { max_tokens: cap } : {}),
    ...(over(request.max_completion_tokens) ? { max_completion_tokens: cap } : {}),
  };
}

/** Gateway-only fields that OpenAI-compatible upstreams would reject or misread. */
export const GATEWAY_ONLY_FIELDS = ["models", "provider", "route", "transforms", "plugins", "usage"] as const;
