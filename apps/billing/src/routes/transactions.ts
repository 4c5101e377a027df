import { principalOf } from "@gw/auth";
import { GatewayError } from "@gw/errors";
import { cursorPageQuery, isExactUtcInstant, parseOrThrow } from "@gw/http";
import { picoToUsdNumber, usdToPico } from "@gw/money";
import type { RequestHandler } from "express";
import type { BillingContext } from "../deps.js";
import { listTransactions, type TransactionPosition } from "../repositories/ledger-transactions.js";

/** Query of GET /api/v1/credits/transactions: exported for the OpenAPI document. */
export const listTransactionsQuery = cursorPageQuery;

const EXACT_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ENTRY_ID = /^\d{1,18}$/;

/**
 * GET /api/v1/credits/transactions (management key) → {data, next_cursor}: the calling key's account's
 * credits (each purchase and grant) and usage (one line per UTC day), newest first.
 */
export function transactionsRoute(context: BillingContext): RequestHandler {
  return async (request, response) => {
    const query = parseOrThrow(listTransactionsQuery, request.query, "query");
    // One extra row tells whether another page exists without a count query.
    const rows = await listTransactions(context.db, principalOf(request).accountId, {
      after: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    response.json({
      data: page.map((row) => ({
        kind: row.kind,
        amount: picoToUsdNumber(usdToPico(row.amount)),
        reference: row.reference,
        entries: row.entries,
        // A usage line stands for its UTC day; a credit for its instant (to the millisecond).
        date: row.kind === "usage" ? row.at.slice(0, 10) : null,
        created_at: `${row.at.slice(0, 23)}Z`,
      })),
      next_cursor: rows.length > query.limit && last ? encodeCursor({ at: last.at, id: last.id }) : null,
    });
  };
}

/** Opaque to clients: a keyset position (the last line's instant and id), never an offset. */
function encodeCursor(position: TransactionPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString("base64url");
}

function decodeCursor(cursor: string): TransactionPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const [at, id] = Array.isArray(parsed) && parsed.length === 2 ? (parsed as unknown[]) : [];
  // A real instant PostgreSQL accepts (no year 0, no 30 February) and an id that fits int8.
  if (
    typeof at !== "string" ||
    !EXACT_INSTANT.test(at) ||
    !isExactUtcInstant(at) ||
    typeof id !== "string" ||
    !ENTRY_ID.test(id)
  ) {
    throw new GatewayError("invalid_request", "cursor: not a cursor this API issued", {
      code: "invalid_parameter",
      metadata: { field: "cursor" },
    });
  }
  return { at, id };
}
