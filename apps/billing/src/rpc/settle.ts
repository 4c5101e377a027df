import type { SettleRequest, SettleResponse } from "@gw/proto/billing/v1/billing";
import type { BillingContext } from "../deps.js";
import { requireField, withStore } from "./store-errors.js";

/**
 * Settle: the request finished; its hold becomes a pending debit of the actual cost until the usage
 * event's ledger entry replaces it. A missing hold (expired, released, already settled or already
 * reconciled from the usage event) needs nothing: the ledger entry accounts for the cost.
 */
export function settle(context: BillingContext) {
  return async (request: SettleRequest): Promise<SettleResponse> => {
    const accountId = requireField("account_id", request.accountId);
    const holdId = requireField("hold_id", request.holdId);
    const result = await withStore("settlement", () =>
      context.store.settle(accountId, holdId, request.actualCostPico),
    );
    if (result !== "settled") context.logger.debug({ accountId, holdId, result }, "settle found no hold");
    return {};
  };
}
