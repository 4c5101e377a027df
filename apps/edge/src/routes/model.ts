import { authenticate, principalOf } from "@gw/auth";
import { GatewayError } from "@gw/errors";
import type { Request, Response } from "express";
import type { EdgeDeps } from "../deps.js";
import { visibleModel } from "../translate/openai/models.js";
import { modelScope } from "./models.js";
import type { Route } from "./route.js";

/**
 * GET /v1/models/{author}/{slug} (openai-node's `models.retrieve`). A model the key cannot use is
 * answered exactly like one that does not exist.
 */
export function modelRoute(deps: EdgeDeps): Route {
  const handler = async (request: Request, response: Response): Promise<void> => {
    const segments = request.params.id;
    const id = Array.isArray(segments) ? segments.join("/") : String(segments);
    const model = deps.catalog.require().model(id);
    const entry = model && visibleModel(model, await modelScope(deps, principalOf(request)));
    if (!entry)
      throw new GatewayError("not_found", `model ${id} does not exist`, { code: "model_not_found" });
    response.json(entry);
  };
  return {
    method: "get",
    path: "/v1/models/*id",
    handlers: [authenticate(deps.principals, "regular"), handler],
  };
}
