import { principalOf } from "@gw/auth";
import { GatewayError } from "@gw/errors";
import { int4IdText, parseOrThrow } from "@gw/http";
import type { RequestHandler } from "express";
import type { Kysely } from "kysely";
import { z } from "zod";
import { readActivity } from "../activity/query.js";
import type { GenerationsTables } from "../db/schema.js";

/** The window OpenRouter reports: the last 30 UTC days (here including today, as the rollup is live). */
export const ACTIVITY_DAYS = 30;
const DAY_MS = 86_400_000;

/** Query of GET /api/v1/activity: exported for the OpenAPI document. */
export const activityQuery = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "expected a UTC date, YYYY-MM-DD")
    .optional()
    .meta({ description: "One UTC day of the last 30 (YYYY-MM-DD)." }),
  api_key_hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/, "expected a key hash (64 lower-case hex digits)")
    .optional()
    .meta({ description: "Only this API key's requests (its hash, as the keys API shows it)." }),
  // int4, as the column: 2^31 and more passed a ten-digit pattern and PostgreSQL refused it (a 500).
  app_id: int4IdText
    .optional()
    .meta({ description: "Only requests attributed to this app (a generation's app_id)." }),
});

/**
 * GET /api/v1/activity → {data: ActivityItem[]}: the account's requests, tokens and spend per UTC day ×
 * model × provider over the last 30 days, or one of them (`?date=`), from the rollup the usage consumer
 * keeps. Management keys only, as on OpenRouter.
 */
export function activityRoute(db: Kysely<GenerationsTables>, now: () => number = Date.now): RequestHandler {
  return async (request, response) => {
    const query = parseOrThrow(activityQuery, request.query, "query");
    const today = new Date(now()).toISOString().slice(0, 10);
    const first = new Date(Date.parse(today) - (ACTIVITY_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
    if (query.date !== undefined && !withinWindow(query.date, first, today)) {
      throw new GatewayError("invalid_request", `date: expected a UTC date from ${first} to ${today}`, {
        code: "invalid_parameter",
        metadata: { field: "date" },
      });
    }
    const data = await readActivity(db, {
      accountId: principalOf(request).accountId,
      from: query.date ?? first,
      to: query.date ?? today,
      keyHash: query.api_key_hash,
      appId: query.app_id === undefined ? undefined : Number(query.app_id),
    });
    response.json({ data });
  };
}

/** A real calendar date (2026-02-30 is not) inside the window; ISO dates compare as strings. */
function withinWindow(date: string, first: string, last: string): boolean {
  const parsed = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed) || new Date(parsed).toISOString().slice(0, 10) !== date) return false;
  return date >= first && date <= last;
}
