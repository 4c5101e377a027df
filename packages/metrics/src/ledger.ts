import { Counter, Histogram } from "prom-client";
import { FAST_BUCKETS, registry, secondsSince } from "./registry.js";

const apply = new Histogram({
  name: "gw_ledger_apply_duration_seconds",
  help: "Billing: one ledger write (its database transaction) by operation and outcome.",
  labelNames: ["operation", "outcome"] as const,
  buckets: FAST_BUCKETS,
  registers: [registry],
});

/** Times `work` as one ledger apply of `operation` (a fixed name chosen by the caller). */
export async function timeLedgerApply<T>(operation: string, work: () => Promise<T>): Promise<T> {
  const startedAt = performance.now();
  try {
    const result = await work();
    apply.observe({ operation, outcome: "ok" }, secondsSince(startedAt));
    return result;
  } catch (error) {
    apply.observe({ operation, outcome: "error" }, secondsSince(startedAt));
    throw error;
  }
}

const unsettled = new Counter({
  name: "gw_x402_unsettled_payments_total",
  help: "Billing: x402 settles without a verdict, recorded and then resolved by the reconciler (outcome).",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

/**
 * One x402 settle of unknown outcome: `recorded` when billing keeps it, then one of `credited` (the
 * chain shows the transfer), `not_settled` (its authorization expired unused) or `unresolved` (an
 * operator must look: no chain reader for its network, or a nonce consumed without a transfer).
 */
export function recordUnsettledPayment(
  outcome: "recorded" | "credited" | "not_settled" | "unresolved",
): void {
  unsettled.inc({ outcome });
}
