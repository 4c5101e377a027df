import { principalOf } from "@gw/auth";
import { parseOrThrow } from "@gw/http";
import type { RequestHandler } from "express";
import type { IdentityContext } from "../context.js";
import { createKeyBody, toSettings } from "../keys/schemas.js";
import { createKey } from "../keys/service.js";
import { keyView } from "../keys/view.js";
import { NEW_KEY_USAGE } from "../usage/billing.js";

/** POST /api/v1/keys → 201 {data: Key, key}; with the rotation (management-keys.ts), the only responses that carry a secret. */
export function createKeyRoute(context: IdentityContext): RequestHandler {
  return async (request, response) => {
    const principal = principalOf(request);
    const settings = toSettings(parseOrThrow(createKeyBody, request.body));
    const { secret, row } = await createKey(context.db, {
      accountId: principal.accountId,
      settings,
      createdBy: principal.keyHash,
    });
    context.logger.info({ keyHash: row.hash, accountId: row.account_id }, "api key created");
    response.status(201).json({ data: keyView(row, NEW_KEY_USAGE), key: secret });
  };
}
