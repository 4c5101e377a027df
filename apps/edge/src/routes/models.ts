import { authenticate, type Principal, principalOf } from "@gw/auth";
import type { Request, Response } from "express";
import type { EdgeDeps } from "../deps.js";
import { listModels, type ModelListScope } from "../translate/openai/models.js";
import type { Route } from "./route.js";

/** GET /v1/models: the models the calling API key may use, from the in-memory catalogue. */
export function modelsRoute(deps: EdgeDeps): Route {
  const handler = async (request: Request, response: Response): Promise<void> => {
    const scope = await modelScope(deps, principalOf(request));
    response.json(listModels(deps.catalog.require(), scope));
  };
  return { method: "get", path: "/v1/models", handlers: [authenticate(deps.principals, "regular"), handler] };
}

/** The key's allow-lists; a provider counts as configured when the gateway or the account (BYOK) has a key. */
export async function modelScope(deps: EdgeDeps, principal: Principal): Promise<ModelListScope> {
  const byok = deps.byok ? await deps.byok.forAccount(principal.accountId) : undefined;
  return {
    allowedModels: principal.allowedModels?.values,
    allowedProviders: principal.allowedProviders?.values,
    configured: (providerId) =>
      deps.providers.get(providerId) !== undefined || byok?.has(providerId) === true,
  };
}
