import {
  type ConsumedMessage,
  decodeEnvelope,
  decodePayload,
  type EventSubscriber,
  type MessageHandler,
  PAYMENT_SETTLED_V1,
  type Subscription,
} from "@gw/events";
import { creditPayment, InvalidPaymentError, type PaymentCreditDeps } from "../payments/credit-payment.js";
import { PoisonMessageError } from "./usage.js";

export const PAYMENTS_CONSUMER_GROUP = "billing-payments";

/**
 * Turns `payment.settled` events into ledger credits. The edge has usually credited the payment
 * already through CreditPayment (so the paid request is admitted at once); the event is the durable
 * record that credits it when that call was lost. Both go through creditPayment, unique on the
 * payment's reference, so the effect is exactly once. The handler resolves, and the offset is
 * committed, only after the transaction committed.
 */
export function paymentsHandler(deps: PaymentCreditDeps): MessageHandler {
  return async (message: ConsumedMessage) => {
    const envelope = decodeEnvelope(message.value);
    const payment = decodePayload(PAYMENT_SETTLED_V1, envelope);
    if (!payment) {
      deps.logger.debug({ eventType: envelope.eventType }, "payments consumer skips another event type");
      return;
    }
    if (envelope.accountId !== payment.accountId || envelope.eventId !== payment.paymentReference)
      throw new PoisonMessageError("payment event's envelope disagrees with its payload");
    try {
      const credit = await creditPayment(deps, payment);
      if (credit.created)
        deps.logger.info(
          { accountId: payment.accountId, reference: payment.paymentReference },
          "x402 payment credited from its event",
        );
    } catch (error) {
      if (error instanceof InvalidPaymentError) throw new PoisonMessageError(error.message);
      throw error;
    }
  };
}

export function subscribePayments(
  bus: EventSubscriber,
  topic: string,
  deps: PaymentCreditDeps,
): Promise<Subscription> {
  return bus.subscribe({ topic, groupId: PAYMENTS_CONSUMER_GROUP, handler: paymentsHandler(deps) });
}
