import { billingOpenApiPaths } from "@gw/billing";
import { edgeOpenApiPaths } from "@gw/edge";
import { generationsOpenApiPaths } from "@gw/generations";
import { keysOpenApiPaths } from "@gw/keys";
import { buildGatewayDocument, type OpenApiDocument } from "@gw/openapi";

/**
 * The gateway's OpenAPI document, composed here because only the composition root may import every
 * app: the edge's own routes plus the management routes it forwards to keys, billing and generations.
 */
export function gatewayOpenApiDocument(): OpenApiDocument {
  return buildGatewayDocument([
    edgeOpenApiPaths,
    keysOpenApiPaths,
    billingOpenApiPaths,
    generationsOpenApiPaths,
  ]);
}

/** The document as committed: two-space JSON with a final newline (what `biome format` leaves alone). */
export function renderOpenApiJson(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
