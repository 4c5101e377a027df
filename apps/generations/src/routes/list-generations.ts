import { principalOf } from "@gw/auth";
import { GatewayError } from "@gw/errors";
import { cursorPageQuery, parseOrThrow, storableInstantText } from "@gw/http";
import type { RequestHandler } from "express";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { GenerationsTables } from "../db/schema.js";
import { decodeCursor, encodeCursor } from "../records/cursor.js";
import { type GenerationJson, generationJson } from "../records/view.js";
import { GENERATION_STATUSES, listGenerations } from "../repositories/generations.js";

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

// Only dates the database accepts (no year 0): zod's date alone let `0000-01-01` through to a 500.
const instant = storableInstantText.optional();

/** Query of GET /api/v1/generations: exported for the OpenAPI document. */
export const listGenerationsQuery = cursorPageQuery.extend({
  api_key_hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/, "expected a key hash (64 lower-case hex digits)")
    .optional()
    .meta({ description: "Only this API key's requests (its hash, as the keys API shows it)." }),
  model: z.string().min(1).max(200).optional().meta({ description: "Only requests served as this model." }),
  provider: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: "Only requests served by this provider (its id, e.g. openai)." }),
  status: z.enum(GENERATION_STATUSES).optional().meta({
    description:
      "Only requests that ended so: completed (not cancelled, finish_reason not error), error (finish_reason error) or cancelled.",
  }),
  from: instant.meta({
    description: "Only requests made at or after this instant (a bare date: that UTC day's start).",
  }),
  to: instant.meta({
    description: "Only requests made before this instant (a bare date: that UTC day is included).",
  }),
});

export interface GenerationPage {
  data: GenerationJson[];
  /** Pass as `cursor` for the next (older) page; null when this page is the last. */
  next_cursor: string | null;
}

/**
 * GET /api/v1/generations → {data: Generation[], next_cursor}: the account's recent generations, newest
 * first, each in the shape of GET /api/v1/generation. Management keys only (the whole account's requests).
 */
export function listGenerationsRoute(db: Kysely<GenerationsTables>): RequestHandler {
  return async (request, response) => {
    const query = parseOrThrow(listGenerationsQuery, request.query, "query");
    const from = query.from === undefined ? undefined : new Date(query.from);
    const to = query.to === undefined ? undefined : endOf(query.to);
    if (from !== undefined && to !== undefined && from >= to) {
      throw new GatewayError("invalid_request", "from: must be before to", {
        code: "invalid_parameter",
        metadata: { field: "from" },
      });
    }
    // One extra row tells whether another page exists without a count query.
    const rows = await listGenerations(db, {
      accountId: principalOf(request).accountId,
      keyHash: query.api_key_hash,
      model: query.model,
      provider: query.provider,
      status: query.status,
      from,
      to,
      after: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const body: GenerationPage = {
      data: page.map(generationJson),
      next_cursor:
        rows.length > query.limit && last ? encodeCursor({ at: last.position_at, id: last.id }) : null,
    };
    response.json(body);
  };
}

/** The exclusive upper bound: a bare date includes its whole UTC day. */
function endOf(value: string): Date {
  const start = new Date(value);
  return DATE_ONLY.test(value) ? new Date(start.getTime() + DAY_MS) : start;
}
