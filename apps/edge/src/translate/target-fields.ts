import type { ChatRequest } from "../canonical/chat-request.js";
import { GATEWAY_ONLY_FIELDS } from "../canonical/chat-request.js";
import { refuseUnknownMembers } from "./members.js";
import { untranslatable } from "./untranslatable.js";

/**
 * Gemini's `safetySettings` in the canonical request. The chat surface takes it under this name too,
 * so a chat caller can set Gemini's thresholds; only the Gemini format has a place for it.
 */
export const SAFETY_SETTINGS_FIELD = "safety_settings";

export type TargetFormat = "openai" | "anthropic" | "gemini" | "bedrock";

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
  // `cache_control` top-level: OpenRouter's automatic caching, a breakpoint on the last cacheable block.
  anthropic: new Set([...COMMON, "n", "parallel_tool_calls", "user", "cache_control"]),
  gemini: new Set([...COMMON, "n", "seed", "presence_penalty", "frequency_penalty", SAFETY_SETTINGS_FIELD]),
  // Claude on Bedrock takes Anthropic's body, so the format carries Anthropic's fields; the Converse
  // translation (other models) refuses by name those Converse has no field for (converse-request.ts).
  bedrock: new Set([...COMMON, "n", "parallel_tool_calls", "user"]),
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
  // Top-level `cache_control` too: Gemini caches prefixes implicitly, as Converse has no such switch.
  gemini: [
    "parallel_tool_calls",
    "user",
    "logprobs",
    "top_logprobs",
    "logit_bias",
    "cache_control",
    ...ACCOUNT_FIELDS,
  ],
  bedrock: [
    "seed",
    "frequency_penalty",
    "presence_penalty",
    "logprobs",
    "top_logprobs",
    "logit_bias",
    "cache_control",
    ...ACCOUNT_FIELDS,
  ],
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
  refuseUnknownNested(request);
}

const names = (...list: string[]): ReadonlySet<string> => new Set(list);

// The members of the canonical (chat completions) request a translated target has a place for, below the
// top level. `name`, `reasoning`, `refusal` and `annotations` on a message are what the API itself hands
// out (clients send assistant turns back as received); `strict` and an image's `detail` are hints with no
// Anthropic or Gemini form (the field table's rows). Anything else is the caller's, and refused by path.
const MESSAGE = names(
  "role",
  "content",
  "name",
  "tool_call_id",
  "tool_calls",
  "reasoning_details",
  "reasoning",
  "refusal",
  "annotations",
);
const PART: Readonly<Record<string, ReadonlySet<string>>> = {
  text: names("type", "text", "cache_control"),
  refusal: names("type", "refusal"),
  image_url: names("type", "image_url", "cache_control"),
  file: names("type", "file", "cache_control"),
  input_audio: names("type", "input_audio", "cache_control"),
};
const IMAGE_URL = names("url", "detail");
const FILE = names("file_data", "file_id", "filename");
const INPUT_AUDIO = names("data", "format");
const TOOL_CALL = names("id", "type", "function", "index");
const CALLED_FUNCTION = names("name", "arguments");
const TOOL = names("type", "function", "cache_control");
const TOOL_FUNCTION = names("name", "description", "parameters", "strict");
const TOOL_CHOICE = names("type", "function");
const CHOSEN_FUNCTION = names("name");

/**
 * Refuses a member below the top level that the translation would leave out (`messages[0].foo`,
 * `tools[0].function.bar`), naming its path: only an OpenAI-compatible target (which gets the body as
 * sent) takes those. Parts of a type no other format has are refused by the translation itself.
 */
function refuseUnknownNested(request: ChatRequest): void {
  for (const [index, message] of request.messages.entries()) {
    const path = `messages[${index}]`;
    refuseUnknownMembers(message, MESSAGE, path);
    if (Array.isArray(message.content))
      for (const [part, entry] of message.content.entries()) {
        const known = PART[entry.type];
        if (known === undefined) continue;
        refuseUnknownMembers(entry, known, `${path}.content[${part}]`);
        if (entry.type === "image_url")
          refuseUnknownMembers(entry.image_url, IMAGE_URL, `${path}.content[${part}].image_url`);
        if (entry.type === "file") refuseUnknownMembers(entry.file, FILE, `${path}.content[${part}].file`);
        if (entry.type === "input_audio")
          refuseUnknownMembers(entry.input_audio, INPUT_AUDIO, `${path}.content[${part}].input_audio`);
      }
    for (const [call, entry] of (message.tool_calls ?? []).entries()) {
      refuseUnknownMembers(entry, TOOL_CALL, `${path}.tool_calls[${call}]`);
      refuseUnknownMembers(entry.function, CALLED_FUNCTION, `${path}.tool_calls[${call}].function`);
    }
  }
  for (const [index, tool] of (request.tools ?? []).entries()) {
    if (tool.type !== "function") continue; // other tool types are refused by the translation
    refuseUnknownMembers(tool, TOOL, `tools[${index}]`);
    refuseUnknownMembers(tool.function, TOOL_FUNCTION, `tools[${index}].function`);
  }
  const choice = request.tool_choice;
  if (typeof choice === "object" && choice !== null && (choice as { type?: unknown }).type === "function") {
    refuseUnknownMembers(choice, TOOL_CHOICE, "tool_choice");
    refuseUnknownMembers(
      (choice as { function?: unknown }).function,
      CHOSEN_FUNCTION,
      "tool_choice.function",
    );
  }
}

/** The parameters a translated target drops from this request, to report them by name. */
export function droppedFields(request: ChatRequest, target: TargetFormat): string[] {
  if (target === "openai") return [];
  return DROPPED[target].filter((field) => present(request, field));
}
