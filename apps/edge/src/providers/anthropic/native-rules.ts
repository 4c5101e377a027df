import type { WireRequest } from "../exchange.js";
import type { NativeRequest, NativeRules } from "../native-types.js";
import type { ChatCall } from "../types.js";
import { MESSAGES_PATH } from "./api.js";

/**
 * `/v1/messages` → Anthropic: the caller's body as sent, except (the complete list):
 * - `model` becomes the endpoint's upstream model id (the caller named the gateway's model);
 * - `models` and `provider`, the gateway's routing fields, are removed (Anthropic refuses unknown fields);
 * - `stream` follows the attempt (the same as the caller's; usage arrives in the stream's own events).
 * `max_tokens` is required on this surface, so admission's hold already bounds the output the caller
 * asked for. Headers: `anthropic-version` and `anthropic-beta` come from the caller when sent (the
 * version defaults to ours), the credential is always the provider's.
 */
export const ANTHROPIC_REMOVED_FIELDS = ["models", "provider"] as const;

export function anthropicNativeBody(
  body: Readonly<Record<string, unknown>>,
  upstreamModel: string,
  stream: boolean,
): Record<string, unknown> {
  const sent: Record<string, unknown> = { ...body, model: upstreamModel };
  for (const field of ANTHROPIC_REMOVED_FIELDS) delete sent[field];
  if (stream) sent.stream = true;
  else if (sent.stream !== undefined) sent.stream = false;
  return sent;
}

export const anthropicNativeRules: NativeRules = {
  forwardedHeaders: ["anthropic-version", "anthropic-beta"],
  // Not `container` (code-execution state on the gateway's account) nor `service_tier` (priority
  // capacity is priced above the hold).
  nativeOnlyFields: ["context_management", "mcp_servers", "output_format"],
  wire(native: NativeRequest, call: ChatCall, providerHeaders: Record<string, string>): WireRequest {
    return {
      path: MESSAGES_PATH,
      headers: providerHeaders,
      body: JSON.stringify(anthropicNativeBody(native.body, call.upstreamModel, call.stream)),
    };
  },
};
