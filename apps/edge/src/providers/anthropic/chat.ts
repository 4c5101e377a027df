import {
  type AnthropicUsageWire,
  completionFromAnthropic,
  usageFromAnthropic,
} from "../../translate/anthropic/to-openai.js";
import { networkFailure, type UpstreamFailure } from "../failure.js";
import type { CanonicalCompletion } from "../types.js";

/** A 2xx body that is not a Messages response is the provider's failure, so the plan can fail over. */
export function parseAnthropicMessage(json: unknown): CanonicalCompletion | UpstreamFailure {
  if (typeof json !== "object" || json === null || !Array.isArray((json as { content?: unknown }).content))
    return networkFailure("protocol", "the provider returned a malformed message");
  const message = json as Record<string, unknown>;
  const body = completionFromAnthropic(message);
  return {
    body,
    upstreamId: body.id,
    usage: usageFromAnthropic(message.usage as AnthropicUsageWire | undefined),
    nativeFinishReason: typeof message.stop_reason === "string" ? message.stop_reason : undefined,
  };
}
