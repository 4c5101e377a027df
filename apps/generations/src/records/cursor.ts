import { GatewayError } from "@gw/errors";
import { isExactUtcInstant } from "@gw/http";

/** A position in the newest-first listing: the last row's created_at (exact, to the microsecond) and id. */
export interface ListPosition {
  /** ISO 8601 in UTC with microseconds, as PostgreSQL renders it (`listGenerations` selects it). */
  at: string;
  id: string;
}

const EXACT_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const MAX_ID_LENGTH = 200;

/**
 * Cursors are opaque to clients. They carry a keyset position, not an offset: rows recorded after the
 * first page was read (newer ones) never shift the pages that follow it.
 */
export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString("base64url");
}

export function decodeCursor(cursor: string): ListPosition {
  const position = parsePosition(Buffer.from(cursor, "base64url").toString("utf8"));
  if (position === undefined) {
    throw new GatewayError("invalid_request", "cursor: not a cursor this API issued", {
      code: "invalid_parameter",
      metadata: { field: "cursor" },
    });
  }
  return position;
}

function parsePosition(text: string): ListPosition | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
  const [at, id] = parsed as unknown[];
  // A real instant PostgreSQL accepts: Date.parse takes year 0 and 30 February, PostgreSQL refuses them.
  if (typeof at !== "string" || !EXACT_INSTANT.test(at) || !isExactUtcInstant(at)) return undefined;
  if (typeof id !== "string" || id.length === 0 || id.length > MAX_ID_LENGTH || id.includes("\0")) {
    return undefined;
  }
  return { at, id };
}
