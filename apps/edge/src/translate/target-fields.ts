import type { ChatRequest } from "../canonical/chat-request.js";
import { GATEWAY_ONLY_FIELDS } from "../canonical/chat-request.js";
import { untranslatable } from "./untranslatable.js";

/**
 * Gemini's `safetySettings` in the canonical request. The chat surface takes it under this name too,
 * so a chat caller can set Gemini's thresholds; only the Gemini format has a place for it.
 */
export const SAFETY_SETTINGS_FIELD = "safety_settings";

export type TargetFormat = "openai" | "anthropic" | "gemini";

const COMMON = [
  "model",
  "messages",
  "stream",
  "stream_options",
  "max_tokens",
  "max_completion_tokens",
  "temperature",
  "top_p",
  "top_k",
  "stop",
  "tools",
  "tool_choice",
  "response_format",
  "reasoning",
  "reasoning_effort",
];

/** Canonical fields each translated target carries in a field of its own (the field table's rows). */
const TRANSLATED: Readonly<Record<Exclude<TargetFormat, "openai">, ReadonlySet<string>>> = {
  anthropic: new Set([...COMMON, "n", "parallel_tool_calls", "user"]),
  gemini: new Set([...COMMON, "n", "seed", "presence_penalty", "frequency_penalty", SAFETY_SETTINGS_FIELD]),
};

// OpenAI account features (stored completions, cache routing keys, tiers) and OpenRouter's legacy switch:
// they steer nothing on another provider's API.
const ACCOUNT_FIELDS = [
  "store",
  "metadata",
  "prompt_cache_key",
  "safety_identifier",
  "service_tier",
  "verbosity",
  "include_reasoning",
];

/**
 * Request parameters a target has no field for and that change no content, only sampling or extras:
 * they are dropped (OpenRouter: "If the chosen provider doesn't support a parameter, it is ignored"),
 * reported by name, and `provider.require_parameters` excludes such an endpoint instead.
 */
const DROPPED: Readonly<Record<Exclude<TargetFormat, "openai">, readonly string[]>> = {
  anthropic: [
    "seed",
    "frequency_penalty",
    "presence_penalty",
    "logprobs",
    "top_logprobs",
    "logit_bias",
    ...ACCOUNT_FIELDS,
  ],
  gemini: ["parallel_tool_calls", "user", "logprobs", "top_logprobs", "logit_bias", ...ACCOUNT_FIELDS],
};

// Canonical fields one target format alone can carry, with why the others cannot.
const ONLY_FOR: readonly { field: string; format: TargetFormat; name: string; why: string }[] = [
  {
    field: SAFETY_SETTINGS_FIELD,
    format: "gemini",
    name: "safetySettings",
    why: "only Gemini has safety settings; leave them out for other models",
  },
];

const present = (request: ChatRequest, field: string): boolean =>
  request[field] !== undefined && request[field] !== null;

/**
 * Refuses (400 untranslatable_request) a canonical request that carries a field the target format
 * has no place for, so it is never dropped in silence: target-only fields for the other formats and,
 * for a translated target, any field that is neither translated, nor a droppable parameter, nor the
 * gateway's own.
 */
export function refuseForeignFields(request: ChatRequest, target: TargetFormat): void {
  for (const { field, format, name, why } of ONLY_FOR)
    if (format !== target && present(request, field)) untranslatable(name, why);
  if (target === "openai") return;
  const known = TRANSLATED[target];
  const droppable = DROPPED[target];
  const gateway: readonly string[] = GATEWAY_ONLY_FIELDS;
  for (const field of Object.keys(request))
    if (
      present(request, field) &&
      !known.has(field) &&
      !droppable.includes(field) &&
      !gateway.includes(field)
    )
      untranslatable(field, `the ${target} format has no place for it (see the field table)`);
}

/** The parameters a translated target drops from this request, to report them by name. */
export function droppedFields(request: ChatRequest, target: TargetFormat): string[] {
  if (target === "openai") return [];
  return DROPPED[target].filter((field) => present(request, field));
}
