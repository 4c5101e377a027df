import { principalOf } from "@gw/auth";
import { parseOrThrow } from "@gw/http";
import type { RequestHandler } from "express";
import { createCredentialBody, listCredentialsQuery, updateCredentialBody } from "../byok/schemas.js";
import { addCredential, changeCredential, credentialNotFound, removeCredential } from "../byok/service.js";
import { credentialView } from "../byok/view.js";
import type { IdentityContext } from "../context.js";
import { findCredential, pageCredentials } from "../repositories/provider-credentials.js";

// /api/v1/byok: the account's own provider keys. The key goes in once and never comes back out; every
// response shows only its masked label.

/** POST /api/v1/byok {provider, key, name?} → 201 {data: Credential}. */
export function createCredentialRoute(context: IdentityContext): RequestHandler {
  return async (request, response) => {
    const accountId = principalOf(request).accountId;
    const body = parseOrThrow(createCredentialBody, request.body);
    const row = await addCredential(context.byok, accountId, body);
    context.logger.info({ accountId, credentialId: row.id, provider: row.provider_id }, "byok key stored");
    response.status(201).json({ data: credentialView(row) });
  };
}

/** GET /api/v1/byok?limit&offset&provider → {data: Credential[], total_count}, in the order the edge tries them. */
export function listCredentialsRoute(context: IdentityContext): RequestHandler {
  return async (request, response) => {
    const query = parseOrThrow(listCredentialsQuery, request.query, "query");
    const page = await pageCredentials(context.db, {
      accountId: principalOf(request).accountId,
      provider: query.provider,
      offset: query.offset,
      limit: query.limit,
    });
    response.json({ data: page.rows.map(credentialView), total_count: page.total });
  };
}

/** GET /api/v1/byok/:id → {data: Credential}; another account's credential is a 404. */
export function getCredentialRoute(context: IdentityContext): RequestHandler<{ id: string }> {
  return async (request, response) => {
    const row = await findCredential(context.db, principalOf(request).accountId, request.params.id);
    if (!row) throw credentialNotFound();
    response.json({ data: credentialView(row) });
  };
}

/** PATCH /api/v1/byok/:id {name?, key?, disabled?, position? | sort_order?} → {data: Credential}. */
export function updateCredentialRoute(context: IdentityContext): RequestHandler<{ id: string }> {
  return async (request, response) => {
    const accountId = principalOf(request).accountId;
    const body = parseOrThrow(updateCredentialBody, request.body);
    const row = await changeCredential(context.byok, accountId, request.params.id, body);
    response.json({ data: credentialView(row) });
  };
}

/** DELETE /api/v1/byok/:id → {deleted: true, data: {deleted: true}}. */
export function deleteCredentialRoute(context: IdentityContext): RequestHandler<{ id: string }> {
  return async (request, response) => {
    const accountId = principalOf(request).accountId;
    await removeCredential(context.byok, accountId, request.params.id);
    context.logger.info({ accountId, credentialId: request.params.id }, "byok key deleted");
    response.json({ deleted: true, data: { deleted: true } });
  };
}
