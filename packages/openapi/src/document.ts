import { createDocument, type oas31, type ZodOpenApiPathsObject } from "zod-openapi";

/** The document as zod-openapi renders it (OpenAPI 3.1 with 3.2's optional extras in its types). */
export type OpenApiDocument = ReturnType<typeof createDocument>;

import { SECURITY_SCHEMES } from "./security.js";

export const TAGS: oas31.TagObject[] = [
  { name: "inference", description: "OpenAI, Anthropic and Gemini surfaces of the hot path." },
  { name: "batches", description: "Anthropic message batches." },
  { name: "models", description: "The catalogue: models, their endpoints and prices." },
  { name: "keys", description: "API keys of the caller's account (management key)." },
  { name: "byok", description: "The account's own provider keys (bring your own key)." },
  { name: "credits", description: "Credits and usage of the caller's account." },
  { name: "accounts", description: "Accounts and their credits, for the operator (operator token)." },
  { name: "generations", description: "Generation records (cost, tokens, attempts) by id." },
  { name: "wallet", description: "Wallet sign-in (x402 / sign-in-with-x)." },
  { name: "proxy", description: "Native provider APIs passed through with the gateway's metering." },
  { name: "operations", description: "Liveness, readiness and this document." },
];

/**
 * One document from the apps' path fragments (each app describes the routes it owns, the edge the ones
 * it serves). Two fragments describing the same method and path is a mistake, not a merge.
 */
export function buildGatewayDocument(fragments: readonly ZodOpenApiPathsObject[]): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  for (const fragment of fragments) {
    for (const [path, item] of Object.entries(fragment)) {
      const existing = paths[path];
      if (existing) {
        const clash = Object.keys(item).filter((method) => method in existing);
        if (clash.length > 0) throw new Error(`${clash.join(", ")} ${path} is described twice`);
      }
      paths[path] = { ...existing, ...item };
    }
  }
  return createDocument(
    {
      openapi: "3.1.0",
      info: {
        title: "Model Gateway API",
        version: "1.0.0",
        description:
          "The gateway's public (inference) and management REST API as the edge serves it. Management " +
          "routes are forwarded by the edge to the control-plane app that owns them. Generated from the " +
          "zod schemas the routes validate with (`pnpm openapi`); do not edit by hand.",
      },
      servers: [{ url: "/", description: "The edge (every route below is served or forwarded there)." }],
      tags: TAGS,
      paths,
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    // Only schemas named with `.meta({ id })` become components; the rest stay inline where used.
    { reused: "inline" },
  );
}
