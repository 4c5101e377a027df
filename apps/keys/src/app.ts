import { authenticate } from "@gw/auth";
import type { Readiness } from "@gw/http";
import { createControlPlaneApp } from "@gw/service";
import type { Express } from "express";
import { mountCatalogAdmin } from "./catalog/admin-routes.js";
import { bundledCatalog } from "./catalog/content.js";
import { countModelsRoute } from "./catalog/routes/count-models.js";
import { listModelsRoute } from "./catalog/routes/list-models.js";
import { modelEndpointsRoute } from "./catalog/routes/model-endpoints.js";
import { type KeysContext, type KeysDeps, keysContext } from "./deps.js";
import {
  createAccountRoute,
  grantCreditsRoute,
  listAccountsRoute,
} from "./identity/accounts/admin-routes.js";
import { operatorGate } from "./identity/operators/gate.js";
import {
  createCredentialRoute,
  deleteCredentialRoute,
  getCredentialRoute,
  listCredentialsRoute,
  updateCredentialRoute,
} from "./identity/routes/byok.js";
import { createKeyRoute } from "./identity/routes/create-key.js";
import { deleteKeyRoute } from "./identity/routes/delete-key.js";
import { getKeyRoute } from "./identity/routes/get-key.js";
import { listKeysRoute } from "./identity/routes/list-keys.js";
import {
  listManagementKeysRoute,
  revokeManagementKeyRoute,
  rotateManagementKeyRoute,
} from "./identity/routes/management-keys.js";
import { updateKeyRoute } from "./identity/routes/update-key.js";
import { walletAuthBody, walletAuthRoute } from "./identity/routes/wallet-auth.js";
import { keysReadiness } from "./readiness.js";

export function createApp(
  deps: KeysDeps,
  context: KeysContext = keysContext(deps),
  readiness: Readiness = keysReadiness(deps),
): Express {
  const management = authenticate(context.resolver, "management");
  const anyKey = authenticate(context.resolver, "any");
  // The operator's catalogue routes: an operator token only (catalog/admin-routes.ts), never a tenant's
  // key. Identity decides who is an operator; the catalogue gets that one check passed in.
  const operators = operatorGate(context);
  const seed = deps.catalog ?? bundledCatalog();
  // The operator's accounts and credits (identity/accounts/admin-routes.ts): the same operator token.
  const operator = operators.require;
  return createControlPlaneApp({
    ...deps,
    readiness,
    // The sign-in route reads its body itself (a malformed proof is a 401).
    beforeBody: (app) => {
      app.post("/v1/x402/auth", walletAuthBody(deps.bodyTimeoutMs), walletAuthRoute(context));
    },
    routes: (app) => {
      app.post("/api/v1/keys", management, createKeyRoute(context));
      app.get("/api/v1/keys", management, listKeysRoute(context));
      app.get("/api/v1/keys/:hash", management, getKeyRoute(context));
      app.patch("/api/v1/keys/:hash", management, updateKeyRoute(context));
      app.delete("/api/v1/keys/:hash", management, deleteKeyRoute(context));
      app.get("/api/v1/management-keys", management, listManagementKeysRoute(context));
      app.delete("/api/v1/management-keys/:hash", management, revokeManagementKeyRoute(context));
      app.post("/api/v1/management-keys/:hash/rotate", management, rotateManagementKeyRoute(context));
      app.post("/api/v1/byok", management, createCredentialRoute(context));
      app.get("/api/v1/byok", management, listCredentialsRoute(context));
      app.get("/api/v1/byok/:id", management, getCredentialRoute(context));
      app.patch("/api/v1/byok/:id", management, updateCredentialRoute(context));
      app.delete("/api/v1/byok/:id", management, deleteCredentialRoute(context));
      app.get("/api/v1/models", listModelsRoute(context));
      app.get("/api/v1/models/count", countModelsRoute(context));
      app.get("/api/v1/models/:author/:slug/endpoints", anyKey, modelEndpointsRoute(context));
      mountCatalogAdmin(app, { db: context.db, operators, seed });
      app.get("/api/v1/admin/accounts", operator, listAccountsRoute(context));
      app.post("/api/v1/admin/accounts", operator, createAccountRoute(context));
      app.post("/api/v1/admin/accounts/:id/credits", operator, grantCreditsRoute(context));
    },
  });
}
