import type { GATEWAY_ONLY_FIELDS } from "../canonical/chat-request.js";
import type { FieldReasons } from "./native-types.js";

/**
 * The gateway's own request fields (OpenRouter's API), which no provider's API has: every native
 * pass-through removes them (each format's `removedFields`), and chat completions' `chatRequestBody`
 * removes the same list (GATEWAY_ONLY_FIELDS). Keyed by that list, so a field added there needs its reason here.
 */
export const GATEWAY_FIELD_REASONS: Readonly<Record<(typeof GATEWAY_ONLY_FIELDS)[number], string>> = {
  models: "OpenRouter's model fallbacks: the gateway routes them",
  provider: "OpenRouter's provider routing preferences: the gateway plans with them",
  route: "OpenRouter's legacy fallback switch: the gateway routes",
  transforms: "OpenRouter's prompt transforms: the gateway applies middle-out itself (or refuses by name)",
  plugins: "OpenRouter's plugins: the gateway serves them itself (or refuses by name)",
  usage: "OpenRouter's usage-accounting switch: the gateway always reports usage",
} satisfies FieldReasons;

/** The gateway's fields as sent-body removals. */
export function withoutFields(
  body: Readonly<Record<string, unknown>>,
  removed: FieldReasons,
): Record<string, unknown> {
  const sent: Record<string, unknown> = { ...body };
  for (const field of Object.keys(removed)) delete sent[field];
  return sent;
}
