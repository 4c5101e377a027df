import { filterModels, modelList, openRouterModel, parseModelFilters } from "@gw/catalog";
import { GatewayError } from "@gw/errors";
import type { RequestHandler } from "express";
import type { CatalogContext } from "../context.js";

/**
 * GET /api/v1/models: the whole public catalogue in OpenRouter's model object (the edge's /v1/models and
 * /api/v1/models/user filter it per key), narrowed by `?supported_parameters=a,b` and checked `?category=`.
 * A model's price is its primary (first) endpoint's.
 */
export function listModelsRoute(context: CatalogContext): RequestHandler {
  return async (request, response) => {
    const parsed = parseModelFilters(request.query);
    if (!parsed.ok) {
      throw new GatewayError("invalid_request", `${parsed.field}: ${parsed.message}`, {
        code: "invalid_parameter",
        metadata: { field: parsed.field },
      });
    }
    const { content } = await context.snapshots.current();
    const models = content.models.map((model) => openRouterModel(model, model.endpoints));
    response.json(modelList(filterModels(models, parsed.filters)));
  };
}
