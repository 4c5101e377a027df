import { GatewayError } from "@gw/errors";
import type { ReturnLeaseRequest, ReturnLeaseResponse } from "@gw/proto/billing/v1/billing";
import type { BillingContext } from "../deps.js";
import { requireField, withStore } from "./store-errors.js";

/**
 * ReturnLease: the edge stops using a lease. Its hold goes; what its requests cost beyond the usage
 * debits already applied stays pending until their events arrive (at most until the hold's expiry).
 * An unknown, expired or already returned lease, or one of another account, changes nothing.
 */
export function returnLease(context: BillingContext) {
  return async (request: ReturnLeaseRequest): Promise<ReturnLeaseResponse> => {
    const accountId = requireField("account_id", request.accountId);
    const leaseId = requireField("lease_id", request.leaseId);
    if (request.spentPico < 0n) throw new GatewayError("invalid_request", "spent_pico must not be negative");
    const result = await withStore("lease return", () =>
      context.store.returnLease(accountId, leaseId, request.spentPico, context.clock()),
    );
    if (result !== "returned") context.logger.debug({ accountId, leaseId, result }, "return found no lease");
    return {};
  };
}
