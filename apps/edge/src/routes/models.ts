import { authenticate, type Principal, principalOf } from "@gw/auth";
import type { Request, Response } from "express";
import type { EdgeDeps } from "../deps.js";
import { listModels, type ModelListScope } from "../translate/openai/models.js";
import type { Route } from "./route.js";

/** GET /v1/models: the models the calling API key may use, from the in-memory catalogue. */
export function modelsRoute(deps: EdgeDeps): Route {
  const handler = (request: Request, response: Response): void => {
    response.json(listModels(deps.catalog.require(), modelScope(deps, principalOf(request))));
  };
  return { method: "get", path: "/v1/models", handlers: [authenticate(deps.principals, "regular"), handler] };
}

export function modelScope(deps: EdgeDeps, principal: Principal): ModelListScope {
  return {
    allowedModels: principal.allowedModels?.values,
    allowedProviders: principal.allowedProviders?.values,
    configured: (providerId) => deps.providers.get(providerId) !== undefined,
  };
}
