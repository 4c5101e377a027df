import { migrationsCheck } from "@gw/db";
import { GatewayError } from "@gw/errors";
import { Readiness } from "@gw/http";
import type { RequestHandler } from "express";
import { type Kysely, sql } from "kysely";
import { migrations, SCHEMA } from "../db/index.js";
import type { GenerationsTables } from "../db/schema.js";
import type { GenerationsDeps } from "../deps.js";

/**
 * The generations app is ready when its database answers with every migration applied (lookups and
 * the usage consumer both need it). The event backlog is detail only, as on every app.
 */
export function generationsReadiness(deps: Pick<GenerationsDeps, "database" | "bus">): Readiness {
  return new Readiness({
    database: migrationsCheck(deps.database.db, SCHEMA, migrations),
    events: () => ({ ok: true, backlog: deps.bus.backlog() }),
  });
}

/**
 * The former GET /healthz handler (it asked the database under the liveness name). Kept only until
 * app.ts mounts the readiness routes above; remove with that change.
 */
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
