import { authenticate, type Principal, principalOf } from "@gw/auth";
import { filterModels, type ModelFilters, modelList, parseModelFilters } from "@gw/catalog";
import { GatewayError } from "@gw/errors";
import type { Request, Response } from "express";
import type { EdgeContext } from "../pipeline/edge-context.js";
import { anthropicModelList, geminiModelList, modelsDialect } from "../translate/native-models.js";
import { listModels, type ModelListScope } from "../translate/openai/models.js";
import type { Route } from "./route.js";

/** GET /v1/models: the models the calling API key may use, from the in-memory catalogue. */
export function modelsRoute(context: EdgeContext): Route {
  const handler = async (request: Request, response: Response): Promise<void> => {
    const filters = modelFilters(request);
    const scope = await modelScope(context, principalOf(request));
    const snapshot = context.catalog.require();
    const list = modelList(filterModels(listModels(snapshot, scope).data, filters));
    // One path, three SDKs: Anthropic's sends anthropic-version, Gemini's x-goog-api-key (or /v1beta).
    const dialect = modelsDialect(request);
    if (dialect === "anthropic") response.json(anthropicModelList(list.data, request.query));
    else if (dialect === "gemini") response.json(geminiModelList(snapshot, list.data, request.query));
    else response.json(list);
  };
  return {
    method: "get",
    path: ["/v1/models", "/v1beta/models"],
    handlers: [authenticate(context.principals, "regular"), handler],
  };
}

/**
 * GET /api/v1/models/user (OpenRouter's "models for the user"): what /v1/models answers OpenAI's SDK,
 * the models the calling key may use (its allow-lists; providers the gateway or the account's BYOK
 * keys reach), in OpenRouter's list envelope. It is mounted before the key service's /api/v1/models
 * prefix: only the edge knows which providers it can reach.
 */
export function userModelsRoute(context: EdgeContext): Route {
  const handler = async (request: Request, response: Response): Promise<void> => {
    const filters = modelFilters(request);
    const scope = await modelScope(context, principalOf(request));
    response.json(modelList(filterModels(listModels(context.catalog.require(), scope).data, filters)));
  };
  return {
    method: "get",
    path: ["/api/v1/models/user"],
    handlers: [authenticate(context.principals, "regular"), handler],
  };
}

/** `?supported_parameters=a,b` and `?category=`, as on OpenRouter's /api/v1/models; bad ones are a 400. */
function modelFilters(request: Request): ModelFilters {
  const parsed = parseModelFilters(request.query);
  if (parsed.ok) return parsed.filters;
  throw new GatewayError("invalid_request", `${parsed.field}: ${parsed.message}`, {
    code: "invalid_parameter",
    metadata: { field: parsed.field },
  });
}

/** The key's allow-lists; a provider counts as configured when the gateway or the account (BYOK) has a key. */
export async function modelScope(context: EdgeContext, principal: Principal): Promise<ModelListScope> {
  const byok = await context.planner.accountProviders(principal.accountId);
  return {
    allowedModels: principal.allowedModels?.values,
    allowedProviders: principal.allowedProviders?.values,
    configured: (providerId) => context.providers.get(providerId) !== undefined || byok.has(providerId),
  };
}
