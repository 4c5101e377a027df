import { errorResponses, json, OPERATOR_SECURITY, type ZodOpenApiPathsObject } from "@gw/openapi";
import {
  adminListSchema,
  aliasBody,
  changeResultSchema,
  changesSchema,
  dataPolicyBody,
  disableBody,
  importBody,
  importResultSchema,
  modelLimitBody,
  setPriceBody,
} from "./admin-schemas.js";

// The catalogue admin routes (admin-routes.ts) as the edge forwards them. A refused change is a 400
// whose error.metadata.problems lists every problem; nothing is written then.

const errors = errorResponses("openai", [400, 401, 403, 503]);
// Under "models": the catalogue; the operator security tells these apart.
const tags = ["models"];

function change(operationId: string, summary: string, body: Parameters<typeof json>[0]) {
  return {
    post: {
      operationId,
      tags,
      summary,
      security: OPERATOR_SECURITY,
      requestBody: { required: true, content: json(body) },
      responses: {
        "200": {
          description: "Applied (or nothing to change); the diff lists every field old -> new.",
          content: json(changeResultSchema),
        },
        ...errors,
      },
    },
  };
}

export const catalogAdminOpenApiPaths: ZodOpenApiPathsObject = {
  "/api/v1/admin/catalog": {
    get: {
      operationId: "adminListCatalog",
      tags,
      summary: "The served catalogue (prices in USD per token), its version, and what an operator disabled",
      security: OPERATOR_SECURITY,
      responses: { "200": { description: "The catalogue.", content: json(adminListSchema) }, ...errors },
    },
  },
  "/api/v1/admin/catalog/changes": {
    get: {
      operationId: "adminCatalogChanges",
      tags,
      summary: "The catalogue's history, newest first: who, when, every field old -> new",
      security: OPERATOR_SECURITY,
      responses: { "200": { description: "The last 100 changes.", content: json(changesSchema) }, ...errors },
    },
  },
  "/api/v1/admin/catalog/import": {
    post: {
      operationId: "adminImportCatalog",
      tags,
      summary:
        "Upsert a LiteLLM model_prices_and_context_window.json or OpenRouter GET /api/v1/models file; a dry run unless apply",
      security: OPERATOR_SECURITY,
      requestBody: { required: true, content: json(importBody) },
      responses: {
        "200": { description: "The diff; written only with apply: true.", content: json(importResultSchema) },
        ...errors,
      },
    },
  },
  "/api/v1/admin/catalog/prices": change(
    "adminSetPrice",
    "Set some prices of a model at a provider (an endpoint the catalogue lacks is added), audio included, and the endpoint's input modalities",
    setPriceBody,
  ),
  "/api/v1/admin/catalog/data-policy": change(
    "adminSetDataPolicy",
    "Set an endpoint's zero data retention, training on prompts or quantization (the operator's arrangement with the provider)",
    dataPolicyBody,
  ),
  "/api/v1/admin/catalog/disable": change(
    "adminDisable",
    "Stop serving a model, or one of its endpoints",
    disableBody,
  ),
  "/api/v1/admin/catalog/enable": change(
    "adminEnable",
    "Serve a disabled model or endpoint again",
    disableBody,
  ),
  "/api/v1/admin/catalog/limits": change(
    "adminSetModelLimit",
    "Set a model-specific request limit (requests per interval, per account; over it: 429 with limit_source model:<id>); limit: null removes it",
    modelLimitBody,
  ),
  "/api/v1/admin/catalog/aliases": change(
    "adminAlias",
    "Point an alias at a model (model: null removes it)",
    aliasBody,
  ),
};
