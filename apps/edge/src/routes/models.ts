import { authenticate, type Principal, principalOf } from "@gw/auth";
import type { Request, Response } from "express";
import type { EdgeContext } from "../pipeline/edge-context.js";
import { anthropicModelList, geminiModelList, modelsDialect } from "../translate/native-models.js";
import { listModels, type ModelListScope } from "../translate/openai/models.js";
import type { Route } from "./route.js";

/** GET /v1/models: the models the calling API key may use, from the in-memory catalogue. */
export function modelsRoute(context: EdgeContext): Route {
  const handler = async (request: Request, response: Response): Promise<void> => {
    const scope = await modelScope(context, principalOf(request));
    const snapshot = context.catalog.require();
    const list = listModels(snapshot, scope);
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

/** The key's allow-lists; a provider counts as configured when the gateway or the account (BYOK) has a key. */
export async function modelScope(context: EdgeContext, principal: Principal): Promise<ModelListScope> {
  const byok = await context.planner.accountProviders(principal.accountId);
  return {
    allowedModels: principal.allowedModels?.values,
    allowedProviders: principal.allowedProviders?.values,
    configured: (providerId) => context.providers.get(providerId) !== undefined || byok.has(providerId),
  };
}
