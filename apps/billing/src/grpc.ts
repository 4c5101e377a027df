import type * as grpc from "@grpc/grpc-js";
import { BillingServiceService } from "@gw/proto/billing/v1/billing";
import { callerPolicy, callersOf } from "@gw/rpc";
import { createControlPlaneGrpc } from "@gw/service";
import { type BillingContext, type BillingDeps, billingContext } from "./deps.js";
import { billingService } from "./rpc/billing-service.js";

/**
 * Admission and settlement are the edge's; usage is read by the edge and by keys (the Key object);
 * operator credits come from keys, which checks the operator token of its admin routes.
 */
export const BILLING_CALLERS = callerPolicy(
  callersOf(BillingServiceService, {
    admit: ["edge"],
    settle: ["edge"],
    release: ["edge"],
    acquireLease: ["edge"],
    returnLease: ["edge"],
    creditPayment: ["edge"],
    recordUnsettledPayment: ["edge"],
    getUsage: ["edge", "keys"],
    grantCredits: ["keys"],
  }),
);

/** BillingService, added but not bound. */
export function createGrpcServer(
  deps: BillingDeps,
  context: BillingContext = billingContext(deps),
): grpc.Server {
  return createControlPlaneGrpc(deps, BILLING_CALLERS, [[BillingServiceService, billingService(context)]]);
}
