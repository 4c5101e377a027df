import { principalOf } from "@gw/auth";
import { parseOrThrow } from "@gw/http";
import type { RequestHandler } from "express";
import type { IdentityContext } from "../context.js";
import { listKeysQuery } from "../keys/schemas.js";
import { keyView } from "../keys/view.js";
import { listManagedKeys } from "../repositories/api-keys.js";
import { keyUsages } from "../usage/billing.js";
import { decodePageToken, encodePageToken } from "./page-token.js";

/** GET /api/v1/keys → {data: Key[], next_page_token}: the API keys of the caller's account. */
export function listKeysRoute(context: IdentityContext): RequestHandler {
  return async (request, response) => {
    const principal = principalOf(request);
    const query = parseOrThrow(listKeysQuery, request.query, "query");
    const offset = query.page_token !== undefined ? decodePageToken(query.page_token) : (query.offset ?? 0);
    // One extra row tells whether another page exists without a count query.
    const rows = await listManagedKeys(context.db, {
      accountId: principal.accountId,
      includeDisabled: query.include_disabled,
      offset,
      limit: query.page_size + 1,
    });
    const page = rows.slice(0, query.page_size);
    const usages = await keyUsages(context.billing, page);
    response.json({
      data: page.map((row, index) => keyView(row, usages[index]!)),
      next_page_token: rows.length > query.page_size ? encodePageToken(offset + page.length) : null,
    });
  };
}
