import { Counter } from "prom-client";
import { boundCounter } from "./bound.js";
import { boundedCode, registry } from "./registry.js";

const outcomes = new Counter({
  name: "gw_admission_outcomes_total",
  help: "Admission decisions: admitted (via lease or admit), payment_required / rate_limited by reason, unavailable (fail-closed 503), refused (other).",
  labelNames: ["outcome", "reason"] as const,
  registers: [registry],
});

const leaseGrants = new Counter({
  name: "gw_admission_lease_grants_total",
  help: "Budget lease requests to billing: granted, declined (too little budget left) or failed.",
  labelNames: ["result"] as const,
  registers: [registry],
});

const leaseReturns = new Counter({
  name: "gw_admission_lease_returns_total",
  help: "Budget leases handed back to billing: returned or failed (the hold then expires).",
  labelNames: ["result"] as const,
  registers: [registry],
});

const admitted = {
  lease: boundCounter(outcomes, { outcome: "admitted", reason: "lease" }),
  admit: boundCounter(outcomes, { outcome: "admitted", reason: "admit" }),
};

export function recordAdmitted(via: "lease" | "admit"): void {
  admitted[via].inc();
}

/**
 * A refusal by its HTTP status: 402 by reason (the catalogue code), 429 by the limit hit (its
 * limit_source, e.g. free_per_minute), 503 when billing is unreachable (fail-closed).
 */
export function recordAdmissionRefused(status: number, code: string | undefined, limitSource?: string): void {
  const reason = boundedCode(code);
  if (status === 402) outcomes.inc({ outcome: "payment_required", reason });
  else if (status === 429)
    outcomes.inc({ outcome: "rate_limited", reason: boundedCode(limitSource ?? code) });
  else if (status === 503) outcomes.inc({ outcome: "unavailable", reason });
  else outcomes.inc({ outcome: "refused", reason });
}

export function recordLeaseGrant(result: "granted" | "declined" | "failed"): void {
  leaseGrants.inc({ result });
}

export function recordLeaseReturn(result: "returned" | "failed"): void {
  leaseReturns.inc({ result });
}
