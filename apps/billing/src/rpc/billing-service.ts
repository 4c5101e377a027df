import type { BillingServiceServer } from "@gw/proto/billing/v1/billing";
import { unaryHandler } from "@gw/rpc";
import type { BillingContext } from "../deps.js";
import { acquireLease } from "./acquire-lease.js";
import { admit } from "./admit.js";
import { creditPaymentRpc } from "./credit-payment.js";
import { getUsage } from "./get-usage.js";
import { grantCredits } from "./grant-credits.js";
import { recordUnsettledRpc } from "./record-unsettled.js";
import { release } from "./release.js";
import { returnLease } from "./return-lease.js";
import { settle } from "./settle.js";

export function billingService(context: BillingContext): BillingServiceServer {
  return {
    admit: unaryHandler(admit(context), context.logger),
    settle: unaryHandler(settle(context), context.logger),
    release: unaryHandler(release(context), context.logger),
    getUsage: unaryHandler(getUsage(context), context.logger),
    acquireLease: unaryHandler(acquireLease(context), context.logger),
    returnLease: unaryHandler(returnLease(context), context.logger),
    creditPayment: unaryHandler(creditPaymentRpc(context), context.logger),
    grantCredits: unaryHandler(grantCredits(context), context.logger),
    recordUnsettledPayment: unaryHandler(recordUnsettledRpc(context), context.logger),
  };
}
