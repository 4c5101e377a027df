import { principalOf } from "@gw/auth";
import type { RequestHandler } from "express";
import type { IdentityContext } from "../context.js";
import { revokeManagementKey, rotateManagementKey } from "../keys/management.js";
import { keyView } from "../keys/view.js";
import { listManagementKeys } from "../repositories/management-keys.js";
import { NEW_KEY_USAGE } from "../usage/billing.js";

// A management key is refused on inference routes, so it never spends: its usage is zero by
// construction, and these routes do not ask billing for it.

/** GET /api/v1/management-keys → {data: Key[]}: the caller's account's management keys. */
export function listManagementKeysRoute(context: IdentityContext): RequestHandler {
  return async (request, response) => {
    const rows = await listManagementKeys(context.db, principalOf(request).accountId);
    response.json({ data: rows.map((row) => keyView(row, NEW_KEY_USAGE)) });
  };
}

/**
 * DELETE /api/v1/management-keys/:hash → {deleted: true, data: {deleted: true}}. The account's last
 * usable management key is refused (400 `last_management_key`); another account's key is a 404.
 */
export function revokeManagementKeyRoute(context: IdentityContext): RequestHandler<{ hash: string }> {
  return async (request, response) => {
    const accountId = principalOf(request).accountId;
    await revokeManagementKey(context.db, context.store, { accountId, hash: request.params.hash });
    context.logger.info({ keyHash: request.params.hash, accountId }, "management key revoked");
    response.json({ deleted: true, data: { deleted: true } });
  };
}

/**
 * POST /api/v1/management-keys/:hash/rotate → 201 {data: Key, key}: a new secret, shown only here, and
 * the old one refused from now on (on every edge once the key-change event arrives).
 */
export function rotateManagementKeyRoute(context: IdentityContext): RequestHandler<{ hash: string }> {
  return async (request, response) => {
    const principal = principalOf(request);
    const rotated = await rotateManagementKey(
      context.db,
      context.store,
      { accountId: principal.accountId, hash: request.params.hash },
      principal.keyHash,
    );
    context.logger.info(
      { keyHash: rotated.row.hash, replaced: rotated.replaced, accountId: principal.accountId },
      "management key rotated",
    );
    response.status(201).json({ data: keyView(rotated.row, NEW_KEY_USAGE), key: rotated.secret });
  };
}
