import { type CodeFor, GatewayError } from "@gw/errors";
import type { ErrorRenderer } from "@gw/http";
import { encodeX402Header, PAYMENT_REQUIRED_HEADER } from "./headers.js";
import type { PaymentOffer } from "./offers.js";

type PaymentCode = CodeFor<"payment_required">;

/**
 * A 402 that offers x402 top-ups: the gateway's own error (its code, message and metadata, in the
 * surface's shape) plus the v2 `PAYMENT-REQUIRED` header and, in the body, v1's `x402Version` and
 * `accepts`, so both generations of x402 clients find the offer and every SDK still finds `error`.
 */
export class PaymentOfferError extends GatewayError<"payment_required"> {
  constructor(
    code: PaymentCode,
    message: string,
    readonly offer: PaymentOffer,
    options: { metadata?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super("payment_required", message, {
      code,
      ...(options.metadata ? { metadata: options.metadata } : {}),
      headers: { ...options.headers, [PAYMENT_REQUIRED_HEADER]: encodeX402Header(offer.v2) },
    });
  }
}

/** The surface's error body, with the offer's v1 fields beside `error` on a PaymentOfferError. */
export function withPaymentOffer(render: ErrorRenderer): ErrorRenderer {
  return (error, response) => {
    const body = render(error, response);
    if (!(error instanceof PaymentOfferError) || typeof body !== "object" || body === null) return body;
    return { ...body, ...error.offer.v1 };
  };
}
