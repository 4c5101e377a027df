import { principalOf } from "@gw/auth";
import type { RequestHandler } from "express";
import type { IdentityContext } from "../context.js";
import { getManagedKey } from "../keys/service.js";
import { keyView } from "../keys/view.js";
import { keyUsage } from "../usage/billing.js";

/** GET /api/v1/keys/:hash → {data: Key}; another account's key is a 404. */
export function getKeyRoute(context: IdentityContext): RequestHandler<{ hash: string }> {
  return async (request, response) => {
    const row = await getManagedKey(context.db, principalOf(request).accountId, request.params.hash);
    response.json({ data: keyView(row, await keyUsage(context.billing, row)) });
  };
}
