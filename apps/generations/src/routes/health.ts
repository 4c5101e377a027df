import { GatewayError } from "@gw/errors";
import type { RequestHandler } from "express";
import { type Kysely, sql } from "kysely";
import type { GenerationsTables } from "../db/schema.js";

/** GET /healthz: ready when the database answers. */
export function healthRoute(db: Kysely<GenerationsTables>): RequestHandler {
  return async (_request, response) => {
    try {
      await sql`select 1`.execute(db);
    } catch (error) {
      throw new GatewayError("service_unavailable", "database unavailable", { cause: error });
    }
    response.json({ status: "ok" });
  };
}
