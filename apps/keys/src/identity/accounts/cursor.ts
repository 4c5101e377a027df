import { GatewayError } from "@gw/errors";
import { isExactUtcInstant } from "@gw/http";

/** A position in the newest-first account list: the last row's created_at (to the microsecond) and id. */
export interface AccountPosition {
  /** ISO 8601 in UTC with microseconds, as `listAccounts` selects it. */
  at: string;
  id: string;
}

const EXACT_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ACCOUNT_ID = /^[\x21-\x7e]{1,200}$/;

/** Opaque to clients; a keyset position, so accounts created meanwhile never shift the next page. */
export function encodeAccountCursor(position: AccountPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString("base64url");
}

export function decodeAccountCursor(cursor: string): AccountPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  if (Array.isArray(parsed) && parsed.length === 2) {
    const [at, id] = parsed as unknown[];
    // A real instant PostgreSQL accepts: Date.parse takes year 0 and 30 February, PostgreSQL refuses them.
    if (typeof at === "string" && EXACT_INSTANT.test(at) && isExactUtcInstant(at)) {
      if (typeof id === "string" && ACCOUNT_ID.test(id)) return { at, id };
    }
  }
  throw new GatewayError("invalid_request", "cursor: not a cursor this API issued", {
    code: "invalid_parameter",
    metadata: { field: "cursor" },
  });
}
