import type { Principal } from "@gw/auth";
import type { EdgeDeps } from "../deps.js";
import type { Availability } from "../planner/filters.js";
import { planRoute, type RoutePlan } from "../planner/plan.js";
import type { EdgeRuntime } from "../runtime.js";
import type { ChatRequest } from "../translate/openai/chat-request.js";
import { requestedParameters } from "../translate/openai/parameters.js";

export interface PlanRequest {
  principal: Principal;
  /** The request in canonical (OpenAI chat) form, whatever surface it arrived on. */
  request: ChatRequest;
  availability: (providerId: string) => Availability;
  /** `chat` unless said otherwise. */
  kind?: "chat" | "embedding";
}

/** The ordered attempts for a canonical request (the key's allow-lists apply); throws 4xx/503 when none. */
export function planFor(deps: EdgeDeps, runtime: EdgeRuntime, input: PlanRequest): RoutePlan {
  const { request, principal } = input;
  return planRoute({
    snapshot: deps.catalog.require(),
    kind: input.kind ?? "chat",
    model: request.model,
    fallbacks: request.models ?? [],
    preferences: request.provider,
    requestedParameters: requestedParameters(request),
    allowedModels: principal.allowedModels?.values,
    allowedProviders: principal.allowedProviders?.values,
    availability: input.availability,
    random: runtime.settings.random,
    healthy: (providerId) => runtime.health.isHealthy(providerId),
  });
}
