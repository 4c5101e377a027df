import { GATEWAY_FIELD_REASONS } from "../gateway-fields.js";
import type { FieldReasons, NativeRules } from "../native-types.js";

/**
 * Chat completions → an OpenAI-compatible host: the canonical form is this format, and the canonical
 * request keeps every field the caller sent (unknown ones included: the host is their judge), so the
 * dialect's own body is the pass-through. `chatRequestBody` in ./chat.ts applies the changes: the model
 * id, the gateway's own fields (OPENAI_REMOVED_FIELDS, the same GATEWAY_ONLY_FIELDS), stream usage
 * always requested for metering, OpenRouter's `reasoning` as `reasoning_effort` for hosts without it,
 * parameters the endpoint does not list dropped and reported, signatures only another format can read.
 * The caller's `OpenAI-Beta` header goes on.
 */
export const OPENAI_REMOVED_FIELDS: FieldReasons = GATEWAY_FIELD_REASONS;

export const openAiNativeRules: NativeRules = {
  forwardedHeaders: ["openai-beta"],
  removedFields: OPENAI_REMOVED_FIELDS,
  // None yet: OpenAI's account features (store, service_tier) pass as sent (see the README's field table).
  refusedFields: {},
};
