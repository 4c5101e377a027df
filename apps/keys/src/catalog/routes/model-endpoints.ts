import { GatewayError } from "@gw/errors";
import type { RequestHandler } from "express";
import type { CatalogContext } from "../context.js";
import { endpointJson } from "../views.js";

/** GET /api/v1/models/:author/:slug/endpoints → {data: [endpoint]}; unknown model → 404. */
export function modelEndpointsRoute(
  context: CatalogContext,
): RequestHandler<{ author: string; slug: string }> {
  return async (request, response) => {
    const id = `${request.params.author}/${request.params.slug}`;
    const { content } = await context.snapshots.current();
    const model = content.models.find((candidate) => candidate.id === id);
    if (!model) {
      throw new GatewayError("not_found", `model ${id} not found`, { code: "model_not_found" });
    }
    const names = new Map(content.providers.map((provider) => [provider.id, provider.name]));
    response.json({
      data: model.endpoints.map((endpoint) =>
        endpointJson(
          model,
          endpoint,
          names.get(endpoint.providerId) ?? endpoint.providerId,
          context.health.figure(model.id, endpoint.providerId),
        ),
      ),
    });
  };
}
