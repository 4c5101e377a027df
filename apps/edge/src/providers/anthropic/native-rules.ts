import { markLastCacheable } from "../../translate/anthropic/automatic-cache.js";
import type { WireRequest } from "../exchange.js";
import { GATEWAY_FIELD_REASONS, withoutFields } from "../gateway-fields.js";
import type { FieldReasons, NativeRequest, NativeRules } from "../native-types.js";
import type { ChatCall } from "../types.js";
import { MESSAGES_PATH } from "./api.js";

/**
 * `/v1/messages` → Anthropic: the caller's body as sent, fields the gateway does not know included
 * (Anthropic is their judge: its 400 comes back to the caller), except (the complete list):
 * - `model` becomes the endpoint's upstream model id (the caller named the gateway's model);
 * - the gateway's own fields are removed (ANTHROPIC_REMOVED_FIELDS, with why);
 * - `stream` follows the attempt (the same as the caller's; usage arrives in the stream's own events).
 * - a top-level `cache_control` (automatic caching) is written on the last cacheable block, where
 *   Anthropic applies it, so Bedrock's and Vertex's Claude cache the same prefix (markLastCacheable);
 * - `max_tokens` above the endpoint's output cap is lowered to the cap (what OpenRouter serves such a
 *   request with; `@ai-sdk/anthropic` asks for 128,000 on models it does not know).
 * ANTHROPIC_REFUSED_FIELDS are the caller's 400 before admission. `max_tokens` is required on this
 * surface, so admission's hold already bounds the output the caller asked for. Headers:
 * `anthropic-version` and `anthropic-beta` come from the caller when sent (the version defaults to
 * ours), the credential is always the provider's.
 */
export const ANTHROPIC_REMOVED_FIELDS: FieldReasons = GATEWAY_FIELD_REASONS;

export const ANTHROPIC_REFUSED_FIELDS: FieldReasons = {
  container: "a code-execution container is state on the gateway's shared Anthropic account",
  service_tier: "priority capacity is priced above the catalogue price the gateway meters",
};

export function anthropicNativeBody(
  body: Readonly<Record<string, unknown>>,
  upstreamModel: string,
  stream: boolean,
  outputCap = 0,
): Record<string, unknown> {
  const sent: Record<string, unknown> = {
    ...withoutFields(body, ANTHROPIC_REMOVED_FIELDS),
    model: upstreamModel,
  };
  if (outputCap > 0 && typeof sent.max_tokens === "number" && sent.max_tokens > outputCap)
    sent.max_tokens = outputCap;
  automaticCaching(sent);
  if (stream) sent.stream = true;
  else if (sent.stream !== undefined) sent.stream = false;
  return sent;
}

export const anthropicNativeRules: NativeRules = {
  forwardedHeaders: ["anthropic-version", "anthropic-beta"],
  removedFields: ANTHROPIC_REMOVED_FIELDS,
  refusedFields: ANTHROPIC_REFUSED_FIELDS,
  wire(native: NativeRequest, call: ChatCall, providerHeaders: Record<string, string>): WireRequest {
    return {
      path: MESSAGES_PATH,
      headers: providerHeaders,
      body: JSON.stringify(anthropicNativeBody(native.body, call.upstreamModel, call.stream, call.outputCap)),
    };
  },
};

/** A top-level `{type: "ephemeral"}` moved onto the last cacheable block; any other value is Anthropic's to judge. */
function automaticCaching(sent: Record<string, unknown>): void {
  const marker = sent.cache_control;
  if (typeof marker !== "object" || marker === null || (marker as { type?: unknown }).type !== "ephemeral")
    return;
  delete sent.cache_control;
  // The caller's messages are shared with the request (another attempt builds its body from them).
  sent.messages = structuredClone(sent.messages);
  markLastCacheable(sent, marker as Record<string, unknown>);
}
