import type { PrincipalResolver } from "@gw/auth";
import type { TopicConfig } from "@gw/config";
import type { Database } from "@gw/db";
import type { EventBus } from "@gw/events";
import type { AdmissionStore } from "@gw/hotstore";
import type { Logger } from "@gw/logger";
import type { Kysely } from "kysely";
import { Admission, type AdmissionSettings } from "./admission/admission.js";
import type { BillingTables } from "./db/schema.js";

export const DEFAULT_HOLD_TTL_MS = 5 * 60 * 1000;

/** What the billing app is given; the caller (main.ts, standalone, a test) owns every connection. */
export interface BillingDeps {
  database: Database<BillingTables>;
  bus: EventBus;
  topics: TopicConfig;
  logger: Logger;
  /** The hot admission view: RedisAdmissionStore in production, MemoryAdmissionStore embedded. */
  store: AdmissionStore;
  /** Authenticates management keys on REST routes (KeyService through its cache). */
  resolver: PrincipalResolver;
  admission?: Partial<AdmissionSettings>;
  /** Time source for holds and usage windows; tests pin it. */
  clock?: () => number;
}

/** Everything the routes and RPC handlers share, built once per app. */
export interface BillingContext {
  db: Kysely<BillingTables>;
  store: AdmissionStore;
  admission: Admission;
  resolver: PrincipalResolver;
  logger: Logger;
  clock: () => number;
}

export function billingContext(deps: BillingDeps): BillingContext {
  const clock = deps.clock ?? Date.now;
  const settings: AdmissionSettings = {
    holdTtlMs: deps.admission?.holdTtlMs ?? DEFAULT_HOLD_TTL_MS,
    failOpen: deps.admission?.failOpen ?? false,
  };
  return {
    db: deps.database.db,
    store: deps.store,
    admission: new Admission({
      store: deps.store,
      db: deps.database.db,
      logger: deps.logger,
      settings,
      clock,
    }),
    resolver: deps.resolver,
    logger: deps.logger,
    clock,
  };
}
