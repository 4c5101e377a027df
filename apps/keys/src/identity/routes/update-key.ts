import { principalOf } from "@gw/auth";
import { parseOrThrow } from "@gw/http";
import type { RequestHandler } from "express";
import type { IdentityContext } from "../context.js";
import { toPatch, updateKeyBody } from "../keys/schemas.js";
import { getManagedKey, updateKey } from "../keys/service.js";
import { keyView } from "../keys/view.js";
import { keyUsage } from "../usage/billing.js";

/** PATCH /api/v1/keys/:hash → {data: Key}; only the fields present change. */
export function updateKeyRoute(context: IdentityContext): RequestHandler<{ hash: string }> {
  return async (request, response) => {
    const accountId = principalOf(request).accountId;
    const patch = toPatch(parseOrThrow(updateKeyBody, request.body));
    const existing = await getManagedKey(context.db, accountId, request.params.hash);
    // Usage first: if billing is down the client gets a 503 before anything changed, not after.
    const usage = await keyUsage(context.billing, existing);
    const row = await updateKey(context.store, accountId, existing.hash, patch);
    context.logger.info({ keyHash: row.hash, accountId, fields: Object.keys(patch) }, "api key updated");
    response.json({ data: keyView(row, usage) });
  };
}
