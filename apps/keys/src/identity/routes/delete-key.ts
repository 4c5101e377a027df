import { principalOf } from "@gw/auth";
import type { RequestHandler } from "express";
import type { IdentityContext } from "../context.js";
import { deleteKey } from "../keys/service.js";

/** DELETE /api/v1/keys/:hash → {deleted: true, data: {deleted: true}}; a second delete is a 404. */
export function deleteKeyRoute(context: IdentityContext): RequestHandler<{ hash: string }> {
  return async (request, response) => {
    const accountId = principalOf(request).accountId;
    await deleteKey(context.store, accountId, request.params.hash);
    context.logger.info({ keyHash: request.params.hash, accountId }, "api key deleted");
    response.json({ deleted: true, data: { deleted: true } });
  };
}
