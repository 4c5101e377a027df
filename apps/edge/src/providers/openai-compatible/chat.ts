import { type ChatMessage, type ChatRequest, GATEWAY_ONLY_FIELDS } from "../../canonical/chat-request.js";
import { unsupportedFields, withoutFields } from "../../canonical/parameters.js";
import { completionWireSchema, usageFromWire } from "../../canonical/wire.js";
import { ANTHROPIC_REASONING_FORMAT } from "../../translate/anthropic/to-openai.js";
import { GEMINI_REASONING_FORMAT } from "../../translate/gemini/to-openai.js";
import { withoutCacheMarkers } from "../../translate/openai/cache-markers.js";
import { effortFor, reasoningBudget } from "../../translate/openai/reasoning.js";
import { refuseForeignFields } from "../../translate/target-fields.js";
import { untranslatable } from "../../translate/untranslatable.js";
import { networkFailure, type UpstreamFailure } from "../failure.js";
import type { CanonicalCompletion, NativeWebSearch } from "../types.js";

/**
 * The client's request as the upstream should see it: our model id replaced by the provider's, the
 * gateway's routing fields removed, and usage always requested on streams so metering never depends on
 * what the client asked for.
 */
export function chatRequestBody(
  request: ChatRequest,
  upstreamModel: string,
  stream: boolean,
  streamUsage = true,
  reasoningObject = false,
  endpoint: {
    supportedParameters?: readonly string[] | undefined;
    webSearch?: NativeWebSearch | undefined;
  } = {},
): string {
  // Fields only another format can carry are refused; caching breakpoints have no OpenAI form.
  refuseForeignFields(request, "openai");
  const supported = endpoint.supportedParameters;
  const dropped = supported ? unsupportedFields(request, supported) : [];
  const sendable = withoutCacheMarkers(withoutFields(request, dropped));
  const body: Record<string, unknown> = {
    ...sendable,
    model: upstreamModel,
    messages: sendable.messages.map(withoutForeignSignatures),
  };
  for (const field of GATEWAY_ONLY_FIELDS) delete body[field];
  if (!reasoningObject) asReasoningEffort(sendable, body);
  withSearchOptions(body, endpoint.webSearch);
  if (stream) {
    body.stream = true;
    if (streamUsage) body.stream_options = { ...(request.stream_options ?? {}), include_usage: true };
  } else {
    delete body.stream_options;
    if (body.stream !== undefined) body.stream = false;
  }
  return JSON.stringify(body);
}

/**
 * OpenAI's web search on Chat Completions (platform.openai.com "Web search", Chat Completions tab): the
 * search models take `web_search_options` (`search_context_size`, default medium, which is what the
 * catalogue's per-call price is for) and search once per call. It takes no domain lists.
 */
function withSearchOptions(body: Record<string, unknown>, search: NativeWebSearch | undefined): void {
  if (search === undefined) return;
  if (search.includeDomains || search.excludeDomains)
    untranslatable(
      "web plugin include_domains/exclude_domains",
      "OpenAI's web search on Chat Completions takes no domain lists",
    );
  body.web_search_options = { search_context_size: "medium" };
}

/**
 * OpenRouter's `reasoning` object is not OpenAI's API: other hosts get the same request as
 * `reasoning_effort` (unless the client set that itself).
 */
function asReasoningEffort(request: ChatRequest, body: Record<string, unknown>): void {
  if (body.reasoning === undefined) return;
  const budget = reasoningBudget(request);
  delete body.reasoning;
  if (budget !== undefined && body.reasoning_effort === undefined) body.reasoning_effort = effortFor(budget);
}

// Signatures the gateway handed out for Anthropic or Gemini turns mean nothing to other hosts.
const FOREIGN_FORMATS = new Set([ANTHROPIC_REASONING_FORMAT, GEMINI_REASONING_FORMAT]);

function withoutForeignSignatures(message: ChatMessage): ChatMessage {
  if (!Array.isArray(message.reasoning_details)) return message;
  const kept = message.reasoning_details.filter(
    (detail: { format?: unknown }) => !FOREIGN_FORMATS.has(String(detail?.format)),
  );
  const { reasoning_details: _dropped, ...rest } = message;
  return kept.length > 0 ? { ...rest, reasoning_details: kept } : rest;
}

/** A 2xx body that is not a chat completion is the provider's failure, not ours, so it can fail over. */
export function parseCompletion(json: unknown): CanonicalCompletion | UpstreamFailure {
  const parsed = completionWireSchema.safeParse(json);
  if (!parsed.success) return networkFailure("protocol", "the provider returned a malformed chat completion");
  const body = parsed.data;
  return {
    body,
    upstreamId: body.id,
    usage: usageFromWire(body.usage),
    nativeFinishReason: body.choices.find((choice) => choice.finish_reason)?.finish_reason ?? undefined,
  };
}
