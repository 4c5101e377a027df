import type { WireRequest } from "../exchange.js";
import { GATEWAY_FIELD_REASONS, withoutFields } from "../gateway-fields.js";
import type { FieldReasons, NativeRequest, NativeRules } from "../native-types.js";
import type { ChatCall } from "../types.js";

/**
 * The Gemini surface → Google: the caller's body as sent (camelCase or snake_case, as Google parses
 * both), fields the gateway does not know included (Google is their judge: its 400 comes back to the
 * caller), except (the complete list):
 * - the model is the path's, the endpoint's upstream model id;
 * - the gateway's own fields are removed (GEMINI_REMOVED_FIELDS, with why);
 * - the method follows the attempt, and streams always ask for `alt=sse` (the gateway reads SSE and
 *   renders whichever stream form the caller asked for).
 * GEMINI_REFUSED_FIELDS are the caller's 400 before admission. The API version is the caller's (`v1`
 * or `v1beta`). Without `maxOutputTokens` admission holds the endpoint's maximum output, so no cap is
 * added; one above the endpoint's output cap is lowered to it (as on the other surfaces, see
 * `withinOutputCap`). No caller header is forwarded.
 */
export const GEMINI_REMOVED_FIELDS: FieldReasons = GATEWAY_FIELD_REASONS;

export const GEMINI_REFUSED_FIELDS: FieldReasons = {
  cachedContent: "a cached content resource is state on the gateway's shared Google account",
  cached_content: "a cached content resource is state on the gateway's shared Google account",
};

const VERSIONS = new Set(["v1", "v1beta"]);

export function geminiNativeBody(
  body: Readonly<Record<string, unknown>>,
  outputCap = 0,
): Record<string, unknown> {
  const sent = withoutFields(body, GEMINI_REMOVED_FIELDS);
  if (outputCap <= 0) return sent;
  for (const [configKey, capKey] of [
    ["generationConfig", "maxOutputTokens"],
    ["generation_config", "max_output_tokens"],
  ] as const) {
    const config = sent[configKey];
    if (typeof config !== "object" || config === null) continue;
    const asked = (config as Record<string, unknown>)[capKey];
    if (typeof asked === "number" && asked > outputCap) sent[configKey] = { ...config, [capKey]: outputCap };
  }
  return sent;
}

export function geminiNativePath(version: string | undefined, model: string, stream: boolean): string {
  const v = version !== undefined && VERSIONS.has(version) ? version : "v1beta";
  const method = stream ? "streamGenerateContent?alt=sse" : "generateContent";
  return `/${v}/models/${encodeURIComponent(model)}:${method}`;
}

export const geminiNativeRules: NativeRules = {
  forwardedHeaders: [],
  removedFields: GEMINI_REMOVED_FIELDS,
  refusedFields: GEMINI_REFUSED_FIELDS,
  wire(native: NativeRequest, call: ChatCall, providerHeaders: Record<string, string>): WireRequest {
    return {
      path: geminiNativePath(native.apiVersion, call.upstreamModel, call.stream),
      headers: providerHeaders,
      body: JSON.stringify(geminiNativeBody(native.body, call.outputCap)),
    };
  },
};
