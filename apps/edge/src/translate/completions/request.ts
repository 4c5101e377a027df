import { GatewayError } from "@gw/errors";
import { parseOrThrow } from "@gw/http";
import { z } from "zod";
import { type ChatRequest, chatRequestSchema, parseChatRequest } from "../../canonical/chat-request.js";

// POST /v1/completions, OpenAI's legacy prompt API. The gateway serves it through chat: the prompt is
// one user turn of the canonical request, so every provider (not only hosts that still offer the
// legacy endpoint, which today's chat models refuse) answers it through the same planning, admission,
// failover and metering. Fields with no chat equivalent are refused by name.

const tokenCount = z.number().int().positive();

export const completionsRequestSchema = z.strictObject({
  model: z.string().min(1),
  // A string, or an array of one string (several prompts in one request are not supported).
  prompt: z.union([z.string(), z.array(z.string()).length(1, "must hold exactly one prompt")]),
  max_tokens: tokenCount.nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  n: z.number().int().min(1).max(128).nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.strictObject({ include_usage: z.boolean().optional() }).nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  seed: z.number().int().nullish(),
  user: z.string().optional(),
  models: chatRequestSchema.shape.models,
  provider: chatRequestSchema.shape.provider,
});

export type CompletionsRequest = z.infer<typeof completionsRequestSchema>;

/** Legacy fields that need the raw completion endpoint; chat cannot honour them. */
const CHAT_CANNOT = new Set(["echo", "suffix", "logprobs", "best_of", "logit_bias"]);
const KNOWN_FIELDS = new Set(Object.keys(completionsRequestSchema.shape));

/**
 * The body as a legacy completions request. Unknown fields, and legacy fields chat cannot honour, are
 * 400s naming them; the legacy fields' "off" values (`echo: false`, `logprobs: null`, as some SDKs
 * send them) ask for nothing and are taken out.
 */
export function parseCompletionsRequest(body: unknown): CompletionsRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return parseOrThrow(completionsRequestSchema, body);
  const fields = Object.entries(body).filter(
    ([key, value]) => !(CHAT_CANNOT.has(key) && (value === null || value === false)),
  );
  const refused = fields.map(([key]) => key).filter((key) => !KNOWN_FIELDS.has(key));
  if (refused.length > 0) {
    const field = refused.join(", ");
    throw new GatewayError(
      "invalid_request",
      `${field}: not supported (completions are served through chat)`,
      {
        code: "untranslatable_request",
        metadata: { field },
      },
    );
  }
  return parseOrThrow(completionsRequestSchema, Object.fromEntries(fields));
}

/** The legacy request as the canonical chat request: the prompt is the one user message. */
export function chatRequestFromCompletions(request: CompletionsRequest): ChatRequest {
  const prompt = typeof request.prompt === "string" ? request.prompt : request.prompt[0];
  const chat: Record<string, unknown> = {
    model: request.model,
    messages: [{ role: "user", content: prompt }],
  };
  if (request.models) chat.models = request.models;
  if (request.provider) chat.provider = request.provider;
  if (request.stream) chat.stream = true;
  if (request.max_tokens) chat.max_tokens = request.max_tokens;
  for (const field of [
    "temperature",
    "top_p",
    "n",
    "stop",
    "presence_penalty",
    "frequency_penalty",
    "seed",
  ] as const) {
    const value = request[field];
    if (value !== undefined && value !== null) chat[field] = value;
  }
  if (request.user) chat.user = request.user;
  return parseChatRequest(chat);
}
