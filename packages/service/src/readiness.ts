import { type Database, type Migrations, migrationsCheck } from "@gw/db";
import type { EventPublisher } from "@gw/events";
import { Readiness, type ReadinessCheck } from "@gw/http";

/**
 * A control-plane app is ready when its database answers with every migration applied, plus the
 * app's own checks. The event backlog is detail only, on every app: a broker outage must not take
 * every pod out of rotation (events wait in the producer, or the spool).
 */
export function controlPlaneReadiness<Tables>(
  deps: { database: Database<Tables>; bus: Pick<EventPublisher, "backlog"> },
  schema: { name: string; migrations: Migrations },
  checks: Record<string, ReadinessCheck> = {},
): Readiness {
  return new Readiness({
    database: migrationsCheck(deps.database.db, schema.name, schema.migrations),
    ...checks,
    events: () => ({ ok: true, backlog: deps.bus.backlog() }),
  });
}
