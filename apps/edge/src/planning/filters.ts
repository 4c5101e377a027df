import { usdToPico } from "@gw/money";
import type { ProviderPreferences } from "../canonical/chat-request.js";
import type { Endpoint } from "../catalog/snapshot.js";

export type ExclusionCode =
  | "model_not_found"
  | "model_not_allowed"
  | "wrong_model_kind"
  | "provider_not_allowed"
  | "provider_not_configured"
  | "surface_not_supported"
  | "excluded_by_request"
  | "above_max_price"
  | "missing_parameters"
  | "quantization_mismatch"
  | "not_zdr"
  | "data_collection_denied"
  | "context_length"
  | "untranslatable_request";

/** Why a model or endpoint is not in the plan; reported to the caller when nothing is left. */
export interface Exclusion {
  model: string;
  provider?: string;
  code: ExclusionCode;
  reason: string;
}

export type Availability = { usable: true } | { usable: false; code: ExclusionCode; reason: string };

export interface EndpointFilterContext {
  preferences: ProviderPreferences | undefined;
  allowedProviders: readonly string[] | undefined;
  requestedParameters: readonly string[];
  availability: (providerId: string) => Availability;
  /** What the request needs room for; absent = not checked (embeddings, token counting). */
  room?: RequestRoom | undefined;
}

/** The estimated prompt and the output the caller asked for (undefined = none asked). */
export interface RequestRoom {
  promptTokens: number;
  maxTokens: number | undefined;
  /** `transforms: ["middle-out"]`: a prompt too long for an endpoint is compressed to fit it (middle-out.ts). */
  middleOut?: boolean | undefined;
}

/**
 * The answer planned for when the caller sets no `max_tokens`: a prompt must leave at least this much
 * of the context free, or the answer would be cut off almost at once.
 */
export const DEFAULT_PLANNED_OUTPUT = 1024;

const PICO_PER_MILLION = 1_000_000n;

/** The first rule an endpoint breaks, or undefined when it may be tried. Key allow-lists come first. */
export function endpointRejection(
  endpoint: Endpoint,
  context: EndpointFilterContext,
): { code: ExclusionCode; reason: string } | undefined {
  const { preferences } = context;
  const provider = endpoint.providerId;
  if (context.allowedProviders && !context.allowedProviders.includes(provider)) {
    return { code: "provider_not_allowed", reason: `this key may not use provider ${provider}` };
  }
  if (preferences?.only && !preferences.only.includes(provider)) {
    return { code: "excluded_by_request", reason: "not listed in provider.only" };
  }
  if (preferences?.ignore?.includes(provider)) {
    return { code: "excluded_by_request", reason: "listed in provider.ignore" };
  }
  const availability = context.availability(provider);
  if (!availability.usable) return { code: availability.code, reason: availability.reason };
  return (
    preferenceRejection(endpoint, preferences, context.requestedParameters) ??
    (context.room ? roomRejection(endpoint, context.room) : undefined)
  );
}

/**
 * An endpoint whose context cannot hold the prompt plus the requested `max_tokens` (or the default
 * planned answer) is left out, so another endpoint with room serves instead: OpenRouter documents the
 * context length minus the prompt as `max_tokens`' maximum. A `max_tokens` within that but above the
 * endpoint's output cap does not exclude it: the request is sent with the cap (`withinOutputCap`), so
 * the answer may stop at `length` there. A catalogue figure of 0 means "not published".
 */
export function roomRejection(
  endpoint: Endpoint,
  room: RequestRoom,
): { code: ExclusionCode; reason: string } | undefined {
  const output = plannedOutput(endpoint, room);
  const context = endpoint.contextLength;
  if (context <= 0 || room.promptTokens + output <= context) return undefined;
  // OpenRouter's middle-out rule: an endpoint whose context holds at least half of the prompt and
  // output is used, and the prompt compressed to what is left of it after the output.
  if (room.middleOut && output < context && room.promptTokens + output <= 2 * context) return undefined;
  const compressed = room.middleOut ? " (more than twice over: middle-out compresses at most by half)" : "";
  return {
    code: "context_length",
    reason: `about ${room.promptTokens} prompt tokens plus ${output} of output exceed its context of ${context}${compressed}`,
  };
}

/** The output an endpoint must leave room for: `max_tokens` as asked, else the default planned answer. */
export function plannedOutput(endpoint: Endpoint, room: Pick<RequestRoom, "maxTokens">): number {
  const cap = endpoint.maxCompletionTokens;
  return room.maxTokens ?? (cap > 0 ? Math.min(cap, DEFAULT_PLANNED_OUTPUT) : DEFAULT_PLANNED_OUTPUT);
}

/**
 * The prompt budget middle-out compresses to on this endpoint, when the prompt does not fit it as sent;
 * undefined when it fits (or the context is not published).
 */
export function middleOutBudget(endpoint: Endpoint, room: RequestRoom): number | undefined {
  const context = endpoint.contextLength;
  const budget = context - plannedOutput(endpoint, room);
  return context > 0 && room.promptTokens > budget ? Math.max(0, budget) : undefined;
}

function preferenceRejection(
  endpoint: Endpoint,
  preferences: ProviderPreferences | undefined,
  requestedParameters: readonly string[],
): { code: ExclusionCode; reason: string } | undefined {
  if (preferences?.quantizations && !preferences.quantizations.includes(endpoint.quantization)) {
    return { code: "quantization_mismatch", reason: `quantization ${endpoint.quantization || "unknown"}` };
  }
  if (preferences?.zdr && !endpoint.isZdr) {
    return { code: "not_zdr", reason: "does not offer zero data retention" };
  }
  if (preferences?.data_collection === "deny" && endpoint.mayTrainOnData) {
    return {
      code: "data_collection_denied",
      reason: "the provider may train on prompts (data_collection: deny)",
    };
  }
  if (preferences?.max_price && exceedsMaxPrice(endpoint, preferences.max_price)) {
    return { code: "above_max_price", reason: "price above provider.max_price" };
  }
  if (preferences?.require_parameters) {
    const missing = requestedParameters.filter((name) => !endpoint.supportedParameters.includes(name));
    if (missing.length > 0) {
      return { code: "missing_parameters", reason: `does not support ${missing.join(", ")}` };
    }
  }
  return undefined;
}

/** `max_price` is USD per million tokens (per request for `request`); compared exactly in pico. */
function exceedsMaxPrice(endpoint: Endpoint, max: NonNullable<ProviderPreferences["max_price"]>): boolean {
  const pricing = endpoint.pricing;
  if (!pricing) return false;
  if (max.prompt !== undefined && pricing.promptPico * PICO_PER_MILLION > usdToPico(max.prompt)) return true;
  if (max.completion !== undefined && pricing.completionPico * PICO_PER_MILLION > usdToPico(max.completion)) {
    return true;
  }
  return max.request !== undefined && pricing.requestPico > usdToPico(max.request);
}
