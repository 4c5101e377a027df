import { ANY_KEY_SECURITY, errorResponses, json, type ZodOpenApiPathsObject } from "@gw/openapi";
import { z } from "zod";
import { endpointSchema, modelListSchema } from "./openapi-schemas.js";

// The catalogue's public routes (registered in app.ts), as the edge forwards them; its operator routes
// are in admin-openapi.ts.

export const catalogOpenApiPaths: ZodOpenApiPathsObject = {
  "/api/v1/models": {
    get: {
      operationId: "listCatalogModels",
      tags: ["models"],
      summary: "The whole public catalogue (no credential needed; /v1/models filters it per key)",
      security: [],
      responses: {
        "200": { description: "Every model.", content: json(modelListSchema) },
        ...errorResponses("openai", [503]),
      },
    },
  },
  "/api/v1/models/count": {
    get: {
      operationId: "countCatalogModels",
      tags: ["models"],
      summary: "How many models produce the asked output (OpenRouter's models.count(); no credential needed)",
      security: [],
      requestParams: { query: z.object({ output_modalities: z.string().optional() }) },
      responses: {
        "200": {
          description: "The count.",
          content: json(z.object({ data: z.object({ count: z.number().int() }) })),
        },
        ...errorResponses("openai", [400, 503]),
      },
    },
  },
  "/api/v1/models/{author}/{slug}/endpoints": {
    get: {
      operationId: "listModelEndpoints",
      tags: ["models"],
      summary: "A model's provider endpoints with prices and measured health",
      security: ANY_KEY_SECURITY,
      requestParams: { path: z.object({ author: z.string(), slug: z.string() }) },
      responses: {
        "200": { description: "The endpoints.", content: json(z.object({ data: z.array(endpointSchema) })) },
        ...errorResponses("openai", [401, 404, 503]),
      },
    },
  },
};
