import { openRouterModel } from "@gw/catalog";
import { GatewayError } from "@gw/errors";
import type { RequestHandler } from "express";
import type { CatalogContext } from "../context.js";

// OpenRouter's GET /api/v1/models/count (@openrouter/sdk `models.count()`): `{data: {count}}`, the
// models whose output modalities include one of `output_modalities` (comma-separated text, image,
// audio, embeddings, or `all`; default `text`), per OpenRouter's API reference
// (openrouter.ai/docs/api/api-reference/models/list-models-count) and the SDK's ModelsCountResponse.
const MODALITIES = ["text", "image", "audio", "embeddings"] as const;

/** GET /api/v1/models/count: how many catalogue models produce the asked output, public like the list. */
export function countModelsRoute(context: CatalogContext): RequestHandler {
  return async (request, response) => {
    const wanted = outputModalities(request.query.output_modalities);
    const { content } = await context.snapshots.current();
    const count = content.models.filter((model) => {
      if (wanted === "all") return true;
      const output = openRouterModel(model, model.endpoints).architecture.output_modalities;
      return output.some((modality) => wanted.includes(modality));
    }).length;
    response.json({ data: { count } });
  };
}

function outputModalities(value: unknown): readonly string[] | "all" {
  if (value === undefined || value === "") return ["text"];
  const names = typeof value === "string" ? value.split(",").map((name) => name.trim()) : [];
  if (typeof value === "string" && names.length === 1 && names[0] === "all") return "all";
  if (names.length === 0 || names.some((name) => !(MODALITIES as readonly string[]).includes(name))) {
    throw new GatewayError(
      "invalid_request",
      `output_modalities: expected a comma-separated list of ${MODALITIES.join(", ")}, or all`,
      { code: "invalid_parameter", metadata: { field: "output_modalities" } },
    );
  }
  return names;
}
