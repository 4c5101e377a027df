import { Histogram } from "prom-client";
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
