import { GatewayError } from "@gw/errors";
import type {
  RecordUnsettledPaymentRequest,
  RecordUnsettledPaymentResponse,
} from "@gw/proto/billing/v1/billing";
import type { BillingContext } from "../deps.js";
import { InvalidPaymentError } from "../payments/credit-payment.js";
import { recordUnsettled } from "../payments/unsettled.js";

/** RecordUnsettledPayment: the edge's settle gave no verdict; kept for the reconciler, nothing credited. */
export function recordUnsettledRpc(context: BillingContext) {
  return async (request: RecordUnsettledPaymentRequest): Promise<RecordUnsettledPaymentResponse> => {
    if (!request.payment) throw new GatewayError("invalid_request", "payment is required");
    try {
      const created = await recordUnsettled(context.db, {
        payment: request.payment,
        validBefore: new Date(Number(request.validBefore) * 1000),
        reason: request.reason || "unknown",
      });
      return { created };
    } catch (error) {
      if (error instanceof InvalidPaymentError) throw new GatewayError("invalid_request", error.message);
      throw error;
    }
  };
}
