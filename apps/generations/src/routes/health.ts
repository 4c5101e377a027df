import type { Readiness } from "@gw/http";
import { controlPlaneReadiness } from "@gw/service";
import { migrations, SCHEMA } from "../db/index.js";
import type { GenerationsDeps } from "../deps.js";

/**
 * The generations app is ready when its database answers with every migration applied (lookups and
 * the usage consumer both need it). The event backlog is detail only, as on every app.
 */
export function generationsReadiness(deps: Pick<GenerationsDeps, "database" | "bus">): Readiness {
  return controlPlaneReadiness(deps, { name: SCHEMA, migrations });
}
