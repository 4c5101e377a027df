import { authenticate } from "@gw/auth";
import {
  errorHandler,
  jsonBody,
  mountHealthRoutes,
  notFoundHandler,
  type Readiness,
  rejectMalformedUrl,
  requireServiceToken,
} from "@gw/http";
import express, { type Express } from "express";
import { mountCatalogAdmin } from "./catalog/admin-routes.js";
import { bundledCatalog } from "./catalog/content.js";
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
  const app = express();
  app.disable("x-powered-by");
  // Probes first: no token, no body, nothing that could refuse a kubelet.
  mountHealthRoutes(app, readiness);
  // `%ff` or `%00` in a path or query is a 400 here, before a route decodes it or a query carries it.
  app.use(rejectMalformedUrl());
  // Before the body is read: a caller that is not the edge gets nothing from this port.
  if (deps.serviceAuth) app.use(requireServiceToken(deps.serviceAuth.verifier, { callers: ["edge"] }));
  // Before the JSON parser: the sign-in route reads its body itself (a malformed proof is a 401).
  app.post("/v1/x402/auth", walletAuthBody(deps.bodyTimeoutMs), walletAuthRoute(context));
  // NUL cannot be stored in PostgreSQL text: refused in the body layer with the field named.
  app.use(jsonBody({ refuseNul: true, timeoutMs: deps.bodyTimeoutMs }));

  app.post("/api/v1/keys", management, createKeyRoute(context));
  app.get("/api/v1/keys", management, listKeysRoute(context));
  app.get("/api/v1/keys/:hash", management, getKeyRoute(context));
  app.patch("/api/v1/keys/:hash", management, updateKeyRoute(context));
  app.delete("/api/v1/keys/:hash", management, deleteKeyRoute(context));
  app.post("/api/v1/byok", management, createCredentialRoute(context));
  app.get("/api/v1/byok", management, listCredentialsRoute(context));
  app.get("/api/v1/byok/:id", management, getCredentialRoute(context));
  app.patch("/api/v1/byok/:id", management, updateCredentialRoute(context));
  app.delete("/api/v1/byok/:id", management, deleteCredentialRoute(context));
  app.get("/api/v1/models", listModelsRoute(context));
  app.get("/api/v1/models/:author/:slug/endpoints", anyKey, modelEndpointsRoute(context));
  // The operator's catalogue routes: an operator token only (catalog/admin-routes.ts), never a tenant's
  // key. Identity decides who is an operator; the catalogue gets that one check passed in.
  const operators = operatorGate(context);
  const seed = deps.catalog ?? bundledCatalog();
  mountCatalogAdmin(app, { db: context.db, operators, seed });
  // The operator's accounts and credits (identity/accounts/admin-routes.ts): the same operator token.
  const operator = operators.require;
  app.get("/api/v1/admin/accounts", operator, listAccountsRoute(context));
  app.post("/api/v1/admin/accounts", operator, createAccountRoute(context));
  app.post("/api/v1/admin/accounts/:id/credits", operator, grantCreditsRoute(context));

  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}
