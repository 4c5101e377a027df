import { GatewayError } from "@gw/errors";
import { parseOrThrow } from "@gw/http";
import { z } from "zod";
import { chatRequestSchema } from "../../canonical/chat-request.js";

// POST /v1/responses as the gateway accepts it: OpenAI's Responses API, stateless as OpenRouter's.
// Every field the translation carries is listed; any other field is refused by name
// (untranslatable_request) so that nothing a client asked for is dropped in silence.

const item = z.looseObject({ type: z.string().min(1).optional(), role: z.string().optional() });

/**
 * A string, or a list of items checked one by one, so a bad item is named by its index (a plain
 * union would only say the input as a whole is invalid).
 */
const input = z
  .union([z.string(), z.array(z.unknown()).min(1)])
  .superRefine((value, context) => {
    if (typeof value === "string") return;
    value.forEach((entry, index) => {
      const result = item.safeParse(entry);
      if (!result.success)
        for (const issue of result.error.issues)
          context.addIssue({ code: "custom", path: [index, ...issue.path], message: issue.message });
    });
  })
  .transform((value) => value as string | ResponsesInputItem[]);

const functionTool = z.looseObject({
  type: z.string().min(1),
  name: z.string().min(1).optional(),
  description: z.string().nullish(),
  parameters: z.looseObject({}).nullish(),
  strict: z.boolean().nullish(),
});

const toolChoice = z.union([
  z.enum(["auto", "none", "required"]),
  z.looseObject({ type: z.string().min(1), name: z.string().optional() }),
]);

const textFormat = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("text") }),
  z.strictObject({ type: z.literal("json_object") }),
  z.strictObject({
    type: z.literal("json_schema"),
    name: z.string().min(1).max(64),
    schema: z.looseObject({}),
    description: z.string().optional(),
    strict: z.boolean().nullish(),
  }),
]);

const EFFORTS = ["minimal", "low", "medium", "high"] as const;
export type SummaryMode = "auto" | "concise" | "detailed";

const reasoning = z.strictObject({
  effort: z.enum(EFFORTS).nullish(),
  summary: z.enum(["auto", "concise", "detailed"]).nullish(),
  // The older spelling of `summary`, still sent by some clients.
  generate_summary: z.enum(["auto", "concise", "detailed"]).nullish(),
});

const tokenCount = z.number().int().positive();

export const responsesRequestSchema = z.strictObject({
  model: z.string().min(1),
  input,
  instructions: z.string().nullish(),
  tools: z.array(functionTool).max(128).optional(),
  tool_choice: toolChoice.optional(),
  parallel_tool_calls: z.boolean().nullish(),
  reasoning: reasoning.nullish(),
  text: z
    .strictObject({ format: textFormat.optional(), verbosity: z.enum(["low", "medium", "high"]).nullish() })
    .optional(),
  max_output_tokens: tokenCount.nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  metadata: z.record(z.string().max(64), z.string().max(512)).nullish(),
  user: z.string().optional(),
  // OpenAI's successor to `user` for abuse detection: sent on as the chat request's `user`.
  safety_identifier: z.string().max(256).optional(),
  // A caching hint: OpenAI-compatible hosts take it as is; the others cache without one.
  prompt_cache_key: z.string().max(256).optional(),
  stream: z.boolean().nullish(),
  stream_options: z.strictObject({ include_obfuscation: z.boolean().optional() }).nullish(),
  // Stateless: only the values that ask for no stored state are accepted (checked below by name).
  store: z.boolean().nullish(),
  previous_response_id: z.string().nullish(),
  truncation: z.enum(["disabled", "auto"]).nullish(),
  // The AI SDK asks for encrypted reasoning whenever store is false: the gateway returns the reasoning
  // the provider gives (as summaries), and no other inclusion is offered.
  include: z.array(z.enum(["reasoning.encrypted_content"])).nullish(),
  // Only the tiers that ask for nothing special: a priority or flex tier is not something to drop.
  service_tier: z.enum(["auto", "default"]).nullish(),
  models: chatRequestSchema.shape.models,
  provider: chatRequestSchema.shape.provider,
});

export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;
export type ResponsesInputItem = z.infer<typeof item>;
export type ResponsesTool = z.infer<typeof functionTool>;
export type ResponsesToolChoice = z.infer<typeof toolChoice>;

const KNOWN_FIELDS = new Set(Object.keys(responsesRequestSchema.shape));

function refuse(field: string, why: string): never {
  throw new GatewayError("invalid_request", `${field}: ${why}`, {
    code: "untranslatable_request",
    metadata: { field },
  });
}

/**
 * The body as a Responses request: unknown fields and the stateful features (`store: true`,
 * `previous_response_id`, `truncation: "auto"`) are 400s naming the field, before the schema's own
 * checks so the message says what is unsupported rather than what is malformed.
 */
export function parseResponsesRequest(body: unknown): ResponsesRequest {
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    const unknown = Object.keys(body).filter((key) => !KNOWN_FIELDS.has(key));
    if (unknown.length > 0)
      refuse(
        unknown.join(", "),
        "not supported by this gateway's Responses API (nothing is dropped in silence)",
      );
  }
  const request = parseOrThrow(responsesRequestSchema, body);
  if (request.store === true)
    refuse(
      "store",
      "the Responses API here is stateless: responses are not stored (send store: false or omit it)",
    );
  if (request.previous_response_id)
    refuse(
      "previous_response_id",
      "the Responses API here is stateless: send the whole conversation in input",
    );
  if (request.truncation === "auto") refuse("truncation", 'only "disabled" is supported');
  return request;
}
