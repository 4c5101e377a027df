import { isGatewayError } from "@gw/errors";
import type { Logger } from "@gw/logger";
import { recordAdmissionRefused, recordAdmitted } from "@gw/metrics";
import { type ChargePolicy, DEFAULT_CHARGE_POLICY } from "@gw/money";
import type { BillingClient } from "../clients/billing.js";
import { type AdmitInput, admit, type Hold, isLeaseHold } from "./admit.js";
import { admitPlanned } from "./admit-planned.js";
import { LeaseBook } from "./lease-book.js";
import { Settlements } from "./settlement.js";

export interface AdmissionDeps {
  billing: BillingClient;
  logger: Logger;
  now: () => number;
  /** Admit under budget leases from billing (see lease-book.ts); false = one Admit call per request. */
  leases: boolean;
  /** How BYOK requests are charged (BYOK_FEE_PERCENT): it sizes their holds. Default: a fee of 0. */
  charge?: ChargePolicy;
}

/**
 * A request's spend from start to end, in one place: `admit`/`admitPlanned` place the hold (its own in
 * billing, or a reservation under this edge's budget lease), `finish` ends it with the actual cost
 * (settle, release, or the lease's local account), and `close` returns the leases when the edge stops.
 */
export class Admission {
  readonly leases: LeaseBook;
  private readonly settlements: Settlements;

  constructor(private readonly deps: AdmissionDeps) {
    this.leases = new LeaseBook({
      billing: deps.billing,
      logger: deps.logger,
      now: deps.now,
      settings: { enabled: deps.leases },
    });
    this.settlements = new Settlements(deps.billing, deps.logger);
  }

  /** A planned request (see admit-planned.ts): under the lease when it may be, else one Admit. */
  admitPlanned(input: Omit<Parameters<typeof admitPlanned>[1], "leases">): Promise<Hold> {
    return counted(
      admitPlanned(this.deps.billing, {
        ...input,
        leases: this.leases,
        charge: this.deps.charge ?? DEFAULT_CHARGE_POLICY,
      }),
    );
  }

  /** One Admit with a hold of its own, never leased (the proxy's unpriced calls). */
  admit(input: AdmitInput): Promise<Hold> {
    return counted(admit(this.deps.billing, input));
  }

  /** The request ended and cost `actualCostPico`; `served` false with no cost releases the hold. */
  finish(hold: Hold, actualCostPico: bigint, served: boolean): void {
    if (isLeaseHold(hold)) this.leases.finish(hold, actualCostPico);
    else this.settlements.finish(hold, actualCostPico, served);
  }

  /** Waits for the settlements under way, then returns every lease (the edge is stopping). */
  async close(): Promise<void> {
    await this.settlements.drain();
    await this.leases.close();
  }

  /** Resolves once every settlement started so far has finished. */
  drain(): Promise<void> {
    return this.settlements.drain();
  }
}

/** Counts the decision: admitted (under a lease or by an Admit), or refused by its status and code. */
function counted(decision: Promise<Hold>): Promise<Hold> {
  return decision.then(
    (hold) => {
      recordAdmitted(isLeaseHold(hold) ? "lease" : "admit");
      return hold;
    },
    (error: unknown) => {
      if (isGatewayError(error))
        recordAdmissionRefused(error.status, error.code, limitSourceOf(error.metadata));
      else recordAdmissionRefused(500, undefined);
      throw error;
    },
  );
}

function limitSourceOf(metadata: Record<string, unknown> | undefined): string | undefined {
  const source = metadata?.limit_source;
  return typeof source === "string" ? source : undefined;
}

/** The lease a hold was taken under, which the usage event names so billing moves its cost once. */
export function leaseIdOf(hold: Hold): string | undefined {
  return isLeaseHold(hold) ? hold.lease.id : undefined;
}
