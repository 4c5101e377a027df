import type { CompletionWire } from "../../canonical/wire.js";
import { outputTexts } from "../../canonical/wire.js";
import { renderUsage, type UsageRender } from "./usage.js";

export interface ResponseIdentity {
  generationId: string;
  /** Our model id (`<author>/<slug>`), not the provider's name for it. */
  model: string;
  provider: string;
  /** Unix seconds, used when the upstream sent none. */
  created: number;
}

/**
 * The upstream completion as the client sees it: the generation id as `id`, our model id, the
 * provider that served it, and usage with its cost. Everything else the upstream sent passes through.
 */
export function renderCompletion(
  body: CompletionWire,
  identity: ResponseIdentity,
  usage: UsageRender,
): Record<string, unknown> {
  return {
    ...body,
    id: identity.generationId,
    object: "chat.completion",
    created: typeof body.created === "number" ? body.created : identity.created,
    model: identity.model,
    provider: identity.provider,
    // OpenRouter's contract: the provider's fingerprint, or null when it sent none (its SDK requires
    // the field on every completion).
    system_fingerprint: typeof body.system_fingerprint === "string" ? body.system_fingerprint : null,
    usage: renderUsage(usage),
  };
}

/** Generated text of every choice, for a token count when the upstream reported no usage. */
export function completionTexts(body: CompletionWire): string[] {
  return body.choices.flatMap((choice) => outputTexts(choice.message));
}
