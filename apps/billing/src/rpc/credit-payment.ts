import { GatewayError } from "@gw/errors";
import type { CreditPaymentRequest, CreditPaymentResponse } from "@gw/proto/billing/v1/billing";
import type { BillingContext } from "../deps.js";
import { creditPayment, InvalidPaymentError } from "../payments/credit-payment.js";

/**
 * CreditPayment: the edge settled an x402 payment and waits for its credit before serving the paid
 * request (the rare paying request pays for this one Postgres round trip; others never do).
 */
export function creditPaymentRpc(context: BillingContext) {
  return async (request: CreditPaymentRequest): Promise<CreditPaymentResponse> => {
    if (!request.payment) throw new GatewayError("invalid_request", "payment is required");
    try {
      const credit = await creditPayment(context, request.payment);
      return { created: credit.created };
    } catch (error) {
      if (error instanceof InvalidPaymentError) throw new GatewayError("invalid_request", error.message);
      throw error;
    }
  };
}
