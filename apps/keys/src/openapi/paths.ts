import type { ZodOpenApiPathsObject } from "@gw/openapi";
import { catalogAdminOpenApiPaths } from "../catalog/admin-openapi.js";
import { catalogOpenApiPaths } from "../catalog/openapi.js";
import { accountsAdminOpenApiPaths } from "../identity/accounts/admin-openapi.js";
import { keyOpenApiPaths, walletOpenApiPaths } from "../identity/openapi.js";

// The keys app's document: each module describes its own routes (identity/openapi.ts,
// catalog/openapi.ts and their admin-openapi.ts), composed here in the order the document lists them.

export const keysOpenApiPaths: ZodOpenApiPathsObject = {
  ...catalogAdminOpenApiPaths,
  ...accountsAdminOpenApiPaths,
  ...keyOpenApiPaths,
  ...catalogOpenApiPaths,
  ...walletOpenApiPaths,
};
