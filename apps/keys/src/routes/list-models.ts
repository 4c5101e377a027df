import type { RequestHandler } from "express";
import { modelJson } from "../catalog/views.js";
import type { KeysContext } from "../deps.js";

/** GET /api/v1/models: the whole public catalogue (the edge's /v1/models filters it per key). */
export function listModelsRoute(context: KeysContext): RequestHandler {
  return async (_request, response) => {
    const { content } = await context.snapshots.current();
    response.json({ object: "list", data: content.models.map(modelJson) });
  };
}
