import { principalOf } from "@gw/auth";
import { parseOrThrow } from "@gw/http";
import type { RequestHandler } from "express";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { GenerationsTables } from "../db/schema.js";
import { generationJson } from "../records/view.js";
import { lookupGeneration } from "../repositories/lookup.js";

/** `?id=`: exported for the OpenAPI document. */
export const generationQuery = z.object({ id: z.string().min(1, "is required") });

/** GET /api/v1/generation?id= → {data: Generation}; any key of the owning account may read it. */
export function getGenerationRoute(db: Kysely<GenerationsTables>): RequestHandler {
  return async (request, response) => {
    const { id } = parseOrThrow(generationQuery, request.query, "query");
    const row = await lookupGeneration(db, id, principalOf(request).accountId);
    response.json({ data: generationJson(row) });
  };
}
