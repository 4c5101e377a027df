import type { AcquireLeaseRequest, AcquireLeaseResponse } from "@gw/proto/billing/v1/billing";
import type { BillingContext } from "../deps.js";

/** AcquireLease: a slice of the account's and key's budget, held for one edge (see Leases). */
export function acquireLease(context: BillingContext) {
  return (request: AcquireLeaseRequest): Promise<AcquireLeaseResponse> => context.leases.acquire(request);
}
