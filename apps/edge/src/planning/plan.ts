import { GatewayError } from "@gw/errors";
import type { ProviderPreferences } from "../canonical/chat-request.js";
import type { CatalogSnapshot, Endpoint, Model } from "../catalog/snapshot.js";
import {
  type Availability,
  type EndpointFilterContext,
  type Exclusion,
  endpointRejection,
  type RequestRoom,
  roomRejection,
} from "./filters.js";
import { type HealthView, NO_HEALTH } from "./health.js";
import { acrossModels } from "./measured-order.js";
import { type NeededModality, preferModalities } from "./modalities.js";
import { orderEndpoints } from "./order.js";
import { resolveModel, type SortOrder } from "./variants.js";

export interface PlanInput {
  snapshot: CatalogSnapshot;
  /** `chat` or `embedding`: a model of the other kind cannot serve the surface. */
  kind: string;
  model: string;
  fallbacks: readonly string[];
  preferences: ProviderPreferences | undefined;
  requestedParameters: readonly string[];
  /** The prompt and output to find room for (chat); absent = context is not checked. */
  room?: RequestRoom | undefined;
  /** Undefined means the key is not restricted. */
  allowedModels: readonly string[] | undefined;
  allowedProviders: readonly string[] | undefined;
  availability: (providerId: string) => Availability;
  random?: () => number;
  /** Endpoint health (circuits, measured figures); absent = every endpoint healthy and unmeasured. */
  health?: HealthView;
  /** Input modalities beyond text the request needs: endpoints listed as taking them go first. */
  modalities?: readonly NeededModality[] | undefined;
}

export interface PlannedAttempt {
  model: Model;
  endpoint: Endpoint;
  /**
   * The account's own key for this provider (BYOK) that serves the attempt; absent = the gateway's key.
   * A plan names the credential, never an adapter: the planner's route resolves it (planner.ts).
   */
  byok?: ByokCredential | undefined;
  /** The transforms applied to the request on this endpoint (`middle-out` when it is compressed to fit). */
  transforms?: readonly string[] | undefined;
}

/** Which of the account's provider keys serves an attempt (its id in the key service). */
export interface ByokCredential {
  credentialId: string;
}

export interface RoutePlan {
  attempts: PlannedAttempt[];
  excluded: Exclusion[];
}

const PERMISSION_CODES = new Set(["model_not_allowed", "provider_not_allowed"]);
/** Exclusions the caller can fix by shortening the request (or removing a field no endpoint can carry). */
const CALLER_FIXABLE_CODES = new Set(["context_length", "untranslatable_request"]);

/**
 * The ordered attempts for one request: the requested model's endpoints, then each fallback model's.
 * The requested model itself must exist (404), be allowed (403) and be of the right kind (400);
 * fallbacks that fail those checks are only skipped. With nothing left the caller learns why.
 */
export function planRoute(input: PlanInput): RoutePlan {
  const excluded: Exclusion[] = [];
  const attempts: PlannedAttempt[] = [];
  const seen = new Set<string>();
  for (const [index, id] of [input.model, ...input.fallbacks].entries()) {
    if (seen.has(id)) continue;
    seen.add(id);
    const candidate = candidateModel(input, id, index === 0, excluded);
    if (candidate) attempts.push(...modelAttempts(input, candidate.model, candidate.sort, excluded));
  }
  if (attempts.length === 0) throw nothingLeft(excluded, (exclusion) => couldFit(input, exclusion));
  const ordered = acrossModels(attempts, input.preferences, input.health ?? NO_HEALTH);
  return { attempts: preferModalities(ordered, input.modalities ?? []), excluded };
}

function candidateModel(input: PlanInput, id: string, primary: boolean, excluded: Exclusion[]) {
  const resolved = resolveModel(input.snapshot, id);
  if (!resolved) {
    if (primary)
      throw new GatewayError("not_found", `model ${id} does not exist`, { code: "model_not_found" });
    excluded.push({ model: id, code: "model_not_found", reason: "no such model" });
    return undefined;
  }
  const { model } = resolved;
  if (input.allowedModels && !input.allowedModels.includes(model.id)) {
    if (primary) {
      throw new GatewayError("permission", `this key may not use model ${model.id}`, {
        code: "model_not_allowed",
      });
    }
    excluded.push({ model: model.id, code: "model_not_allowed", reason: "not allowed for this key" });
    return undefined;
  }
  if (model.kind !== input.kind) {
    const reason = `model ${model.id} is a ${model.kind} model and cannot serve ${input.kind} requests`;
    if (primary) throw new GatewayError("invalid_request", reason, { code: "wrong_model_kind" });
    excluded.push({ model: model.id, code: "wrong_model_kind", reason });
    return undefined;
  }
  return resolved;
}

function modelAttempts(
  input: PlanInput,
  model: Model,
  sort: SortOrder | undefined,
  excluded: Exclusion[],
): PlannedAttempt[] {
  if (model.endpoints.length === 0) {
    excluded.push({
      model: model.id,
      code: "provider_not_configured",
      reason: "the catalogue lists no endpoint",
    });
    return [];
  }
  const context: EndpointFilterContext = {
    preferences: input.preferences,
    allowedProviders: input.allowedProviders,
    requestedParameters: input.requestedParameters,
    availability: input.availability,
    room: input.room,
  };
  const usable = model.endpoints.filter((endpoint) => {
    const rejection = endpointRejection(endpoint, context);
    if (rejection) excluded.push({ model: model.id, provider: endpoint.providerId, ...rejection });
    return rejection === undefined;
  });
  const ordered = orderEndpoints(usable, {
    preferences: input.preferences,
    sort,
    random: input.random ?? Math.random,
    modelId: model.id,
    health: input.health ?? NO_HEALTH,
  });
  return ordered.map((endpoint) => ({ model, endpoint }));
}

/**
 * Whether shortening the request is not what keeps this exclusion's endpoint from serving: it was left
 * out for another reason (not configured here, the caller's own preferences) although the prompt and
 * output would fit it. A model-level exclusion (no such fallback, not allowed) has no endpoint to fit.
 */
function couldFit(input: PlanInput, exclusion: Exclusion): boolean {
  if (!input.room || exclusion.code === "context_length" || exclusion.provider === undefined) return false;
  const endpoints = resolveModel(input.snapshot, exclusion.model)?.model.endpoints ?? [];
  const room = input.room;
  return endpoints.some(
    (endpoint) => endpoint.providerId === exclusion.provider && roomRejection(endpoint, room) === undefined,
  );
}

function nothingLeft(
  excluded: Exclusion[],
  couldFitOtherwise: (exclusion: Exclusion) => boolean,
): GatewayError {
  // Every endpoint's format lacks a field the request carries: the caller has that field to remove.
  const untranslatable = excluded.filter((exclusion) => exclusion.code === "untranslatable_request");
  if (untranslatable.length > 0 && untranslatable.length === excluded.length) {
    return new GatewayError("invalid_request", untranslatable[0]?.reason ?? "", {
      code: "untranslatable_request",
      metadata: { excluded },
    });
  }
  // Nothing had room for the prompt plus the output asked for (or could carry the request): the caller
  // has to shorten it. A 503 here made the official SDKs retry a request that can never succeed. An
  // endpoint left out for another reason counts against that only if the request would have fit it
  // (then the operator, not the caller, stands between the request and an answer).
  const tooLong = excluded.filter((exclusion) => exclusion.code === "context_length");
  if (
    tooLong.length > 0 &&
    excluded.every((exclusion) => CALLER_FIXABLE_CODES.has(exclusion.code) || !couldFitOtherwise(exclusion))
  ) {
    const first = tooLong[0];
    const where = first ? `${first.model}${first.provider ? ` at ${first.provider}` : ""}` : "";
    return new GatewayError("invalid_request", `the request does not fit ${where}: ${first?.reason ?? ""}`, {
      code: "context_length_exceeded",
      metadata: { excluded },
    });
  }
  if (excluded.length > 0 && excluded.every((exclusion) => PERMISSION_CODES.has(exclusion.code))) {
    return new GatewayError("permission", "this key may not use any provider that serves this model", {
      code: "provider_not_allowed",
      metadata: { excluded },
    });
  }
  return new GatewayError("service_unavailable", "no provider is available for this request", {
    code: "no_available_provider",
    metadata: { excluded },
  });
}
