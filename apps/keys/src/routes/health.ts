import { GatewayError } from "@gw/errors";
import type { RequestHandler } from "express";
import { sql } from "kysely";
import type { KeysContext } from "../deps.js";

/** GET /healthz: ready when the database answers (everything this app serves needs it). */
export function healthRoute(context: KeysContext): RequestHandler {
  return async (_request, response) => {
    try {
      await sql`select 1`.execute(context.db);
    } catch (error) {
      throw new GatewayError("service_unavailable", "database unavailable", { cause: error });
    }
    response.json({ status: "ok" });
  };
}
