import type { ReleaseRequest, ReleaseResponse } from "@gw/proto/billing/v1/billing";
import type { BillingContext } from "../deps.js";
import { requireField, withStore } from "./store-errors.js";

/** Release: the request ended without cost (no provider answered); its hold is dropped. */
export function release(context: BillingContext) {
  return async (request: ReleaseRequest): Promise<ReleaseResponse> => {
    const accountId = requireField("account_id", request.accountId);
    const holdId = requireField("hold_id", request.holdId);
    await withStore("release", () => context.store.release(accountId, holdId));
    return {};
  };
}
