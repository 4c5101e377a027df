import type { AdmissionStore } from "@gw/admission-store";
import type { PrincipalResolver } from "@gw/auth";
import type { ReadinessCheck } from "@gw/http";
import type { Logger } from "@gw/logger";
import type { ControlPlaneDeps } from "@gw/service";
import type { Kysely } from "kysely";
import { Admission, type AdmissionSettings } from "./admission/admission.js";
import { type LeaseSettings, Leases } from "./admission/leases.js";
import { DEFAULT_PAID_REQUESTS_PER_MINUTE } from "./admission/limits.js";
import type { BillingTables } from "./db/schema.js";

export const DEFAULT_HOLD_TTL_MS = 5 * 60 * 1000;
export const DEFAULT_LEASE_USE_MS = 30 * 1000;

/**
 * What the billing app is given beyond every control-plane app's deps (database, bus, topics, logger,
 * service auth: REST answers only the edge, gRPC each method's callers in grpc.ts); the caller
 * (main.ts, standalone, a test) owns every connection.
 */
export interface BillingDeps extends ControlPlaneDeps<BillingTables> {
  /** The hot admission view: RedisAdmissionStore in production, MemoryAdmissionStore embedded. */
  store: AdmissionStore;
  /** Authenticates management keys on REST routes (KeyService through its cache). */
  resolver: PrincipalResolver;
  admission?: Partial<AdmissionSettings>;
  /** Budget leases; the TTL defaults to the hold TTL, fail-open follows admission's. */
  leases?: Partial<Pick<LeaseSettings, "ttlMs" | "useMs">>;
  /** Time source for holds and usage windows; tests pin it. */
  clock?: () => number;
  /**
   * The reconciler of x402 settles without a verdict (payments/reconcile.ts): JSON-RPC URLs per network
   * (X402_RPC_URLS) and its period. Unset: the rows are kept but nothing reconciles them.
   */
  reconcile?: { rpcUrls: Record<string, string>; intervalMs: number } | undefined;
  /** /readyz's check of the hot store's connection (Redis PING); unset for an in-process store. */
  hotStoreCheck?: ReadinessCheck | undefined;
}

/** Everything the routes and RPC handlers share, built once per app. */
export interface BillingContext {
  db: Kysely<BillingTables>;
  store: AdmissionStore;
  admission: Admission;
  leases: Leases;
  resolver: PrincipalResolver;
  logger: Logger;
  clock: () => number;
}

export function billingContext(deps: BillingDeps): BillingContext {
  const clock = deps.clock ?? Date.now;
  const settings: AdmissionSettings = {
    holdTtlMs: deps.admission?.holdTtlMs ?? DEFAULT_HOLD_TTL_MS,
    failOpen: deps.admission?.failOpen ?? false,
    paidRequestsPerMinute: deps.admission?.paidRequestsPerMinute ?? DEFAULT_PAID_REQUESTS_PER_MINUTE,
  };
  const admission = new Admission({
    store: deps.store,
    db: deps.database.db,
    logger: deps.logger,
    settings,
    clock,
  });
  const leaseSettings: LeaseSettings = {
    ttlMs: deps.leases?.ttlMs ?? settings.holdTtlMs,
    useMs: deps.leases?.useMs ?? DEFAULT_LEASE_USE_MS,
    failOpen: settings.failOpen,
    paidRequestsPerMinute: settings.paidRequestsPerMinute,
  };
  return {
    db: deps.database.db,
    store: deps.store,
    admission,
    leases: new Leases({ store: deps.store, admission, logger: deps.logger, settings: leaseSettings, clock }),
    resolver: deps.resolver,
    logger: deps.logger,
    clock,
  };
}
