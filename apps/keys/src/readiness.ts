import type { Readiness } from "@gw/http";
import { controlPlaneReadiness } from "@gw/service";
import { migrations, SCHEMA } from "./db/index.js";
import type { KeysDeps } from "./deps.js";

/**
 * The keys app is ready when its database answers with every migration applied and the catalogue is
 * seeded (edges load their snapshot from it). The event backlog is detail: key-change events wait in
 * the spool while the broker is away, and a broker outage must not take every keys pod out of rotation.
 */
export function keysReadiness(deps: Pick<KeysDeps, "database" | "bus">): Readiness {
  const db = deps.database.db;
  return controlPlaneReadiness(
    deps,
    { name: SCHEMA, migrations },
    {
      catalog: async () => {
        const meta = await db.selectFrom("catalog_meta").select("version").executeTakeFirst();
        return { ok: meta !== undefined, version: meta?.version ?? null };
      },
    },
  );
}
