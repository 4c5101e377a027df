import { GatewayError } from "@gw/errors";
import type { RequestHandler } from "express";
import { sql } from "kysely";
import type { BillingContext } from "../deps.js";

/** GET /healthz: ready when the ledger answers (the hot view can always be rebuilt from it). */
export function healthRoute(context: BillingContext): RequestHandler {
  return async (_request, response) => {
    try {
      await sql`select 1`.execute(context.db);
    } catch (error) {
      throw new GatewayError("service_unavailable", "database unavailable", { cause: error });
    }
    response.json({ status: "ok" });
  };
}
