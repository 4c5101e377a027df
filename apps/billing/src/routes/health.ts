import type { Readiness, ReadinessCheck } from "@gw/http";
import { controlPlaneReadiness } from "@gw/service";
import { migrations, SCHEMA } from "../db/index.js";
import type { BillingDeps } from "../deps.js";

/**
 * Billing is ready when the ledger's database is migrated and the hot admission store answers (Admit
 * needs it). The event backlog is detail only: billing publishes few events, and a broker outage must
 * not take every billing pod out of rotation.
 */
export function billingReadiness(deps: Pick<BillingDeps, "database" | "bus" | "hotStoreCheck">): Readiness {
  const checks: Record<string, ReadinessCheck> = deps.hotStoreCheck ? { hot_store: deps.hotStoreCheck } : {};
  return controlPlaneReadiness(deps, { name: SCHEMA, migrations }, checks);
}

/** The hot store's check on Redis: a PING (ioredis queues commands while reconnecting; the probe's timeout bounds it). */
export function redisCheck(redis: { ping(): Promise<string> }): ReadinessCheck {
  return async () => ({ ok: (await redis.ping()) === "PONG" });
}
