import { principalOf } from "@gw/auth";
import { parseOrThrow } from "@gw/http";
import type { RequestHandler } from "express";
import { createCredentialBody, updateCredentialBody } from "../byok/schemas.js";
import { addCredential, changeCredential, removeCredential } from "../byok/service.js";
import { credentialView } from "../byok/view.js";
import type { KeysContext } from "../deps.js";
import { listCredentials } from "../repositories/provider-credentials.js";

// /api/v1/byok: the account's own provider keys. The key goes in once and never comes back out; every
// response shows only its masked label.

/** POST /api/v1/byok {provider, key, name?} → 201 {data: Credential}. */
export function createCredentialRoute(context: KeysContext): RequestHandler {
  return async (request, response) => {
    const accountId = principalOf(request).accountId;
    const body = parseOrThrow(createCredentialBody, request.body);
    const row = await addCredential(context.byok, accountId, body);
    context.logger.info({ accountId, credentialId: row.id, provider: row.provider_id }, "byok key stored");
    response.status(201).json({ data: credentialView(row) });
  };
}

/** GET /api/v1/byok → {data: Credential[]} in the order the edge tries them. */
export function listCredentialsRoute(context: KeysContext): RequestHandler {
  return async (request, response) => {
    const rows = await listCredentials(context.db, principalOf(request).accountId);
    response.json({ data: rows.map(credentialView) });
  };
}

/** PATCH /api/v1/byok/:id {name?, position?} → {data: Credential}; a position re-orders the list. */
export function updateCredentialRoute(context: KeysContext): RequestHandler<{ id: string }> {
  return async (request, response) => {
    const accountId = principalOf(request).accountId;
    const body = parseOrThrow(updateCredentialBody, request.body);
    const row = await changeCredential(context.byok, accountId, request.params.id, body);
    response.json({ data: credentialView(row) });
  };
}

/** DELETE /api/v1/byok/:id → {deleted: true, data: {deleted: true}}. */
export function deleteCredentialRoute(context: KeysContext): RequestHandler<{ id: string }> {
  return async (request, response) => {
    const accountId = principalOf(request).accountId;
    await removeCredential(context.byok, accountId, request.params.id);
    context.logger.info({ accountId, credentialId: request.params.id }, "byok key deleted");
    response.json({ deleted: true, data: { deleted: true } });
  };
}
