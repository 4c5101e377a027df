import type { WireRequest } from "../exchange.js";
import type { NativeRequest, NativeRules } from "../native-types.js";
import type { ChatCall } from "../types.js";

/**
 * The Gemini surface → Google: the caller's body as sent (camelCase or snake_case, as Google parses
 * both), except (the complete list):
 * - the model is the path's, the endpoint's upstream model id;
 * - `models` and `provider`, the gateway's routing fields, are removed (Google refuses unknown names);
 * - the method follows the attempt, and streams always ask for `alt=sse` (the gateway reads SSE and
 *   renders whichever stream form the caller asked for).
 * The API version is the caller's (`v1` or `v1beta`). Without `maxOutputTokens` admission holds the
 * endpoint's maximum output, so no cap is added. No caller header is forwarded.
 */
export const GEMINI_REMOVED_FIELDS = ["models", "provider"] as const;
const VERSIONS = new Set(["v1", "v1beta"]);

export function geminiNativeBody(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const sent: Record<string, unknown> = { ...body };
  for (const field of GEMINI_REMOVED_FIELDS) delete sent[field];
  return sent;
}

export function geminiNativePath(version: string | undefined, model: string, stream: boolean): string {
  const v = version !== undefined && VERSIONS.has(version) ? version : "v1beta";
  const method = stream ? "streamGenerateContent?alt=sse" : "generateContent";
  return `/${v}/models/${encodeURIComponent(model)}:${method}`;
}

export const geminiNativeRules: NativeRules = {
  forwardedHeaders: [],
  // The proto's snake_case spellings Google accepts. Not `cachedContent` (state on the gateway's account).
  nativeOnlyFields: [
    "system_instruction",
    "generation_config",
    "tool_config",
    "safety_settings",
    "safetySettings",
  ],
  wire(native: NativeRequest, call: ChatCall, providerHeaders: Record<string, string>): WireRequest {
    return {
      path: geminiNativePath(native.apiVersion, call.upstreamModel, call.stream),
      headers: providerHeaders,
      body: JSON.stringify(geminiNativeBody(native.body)),
    };
  },
};
