import { extractSecret, looksLikeJwt } from "@gw/auth";
import { type CodeFor, GatewayError, isGatewayError } from "@gw/errors";
import type { ErrorRequestHandler, Request, RequestHandler, Response } from "express";
import type { FeePayers } from "./fee-payers.js";
import {
  encodeX402Header,
  PAYMENT_RESPONSE_HEADER,
  type PaymentHeader,
  paymentHeaderOf,
  X_PAYMENT_RESPONSE_HEADER,
} from "./headers.js";
import { paymentToCheck } from "./normalize.js";
import { PaymentOfferError } from "./offer-error.js";
import { buildOffer, paymentRequirements } from "./offers.js";
import {
  type PaidRequest,
  PaymentCreditPending,
  type PaymentDeps,
  PaymentRefused,
  settlePayment,
} from "./pay.js";

export interface X402Runtime extends PaymentDeps {
  feePayers: FeePayers;
  /** The client's address as this edge determines it (TRUSTED_PROXIES); "unknown" without. */
  clientAddress?: ((request: Request) => string) | undefined;
}

/**
 * The inference routes a top-up pays for (POST only): chat, responses, legacy completions, messages,
 * embeddings (the OpenAI-shaped ones under /v1 and OpenRouter's /api/v1) and Gemini's methods.
 */
const PAID_PATHS =
  /^\/v1\/(chat\/completions|responses|completions|messages|embeddings)$|^\/api\/v1\/(chat\/completions|responses|completions|embeddings)$/;
const GEMINI_METHODS =
  /^\/v1(beta)?\/models\/[^/]+:(generateContent|streamGenerateContent|embedContent|batchEmbedContents)$/;

function isPaidRequest(request: Request): boolean {
  return request.method === "POST" && (PAID_PATHS.test(request.path) || GEMINI_METHODS.test(request.path));
}

/**
 * PUBLIC_BASE_URL plus the route's path: never the query string (a `?key=` credential would be copied
 * by the client into its payment and forwarded to the facilitator) nor the request's `Host` (issue 33).
 */
function resourceUrlOf(runtime: X402Runtime, request: Request): string {
  return `${runtime.settings.publicBaseUrl}${request.path}`;
}

/** A 402 carrying the offer; `error` is x402's short reason inside PAYMENT-REQUIRED. */
async function offerError(
  runtime: X402Runtime,
  request: Request,
  refusal: {
    code: CodeFor<"payment_required">;
    message: string;
    reason: string;
    metadata?: Record<string, unknown>;
  },
  headers: Record<string, string> = {},
): Promise<PaymentOfferError> {
  const offer = buildOffer(runtime.settings, {
    resourceUrl: resourceUrlOf(runtime, request),
    origin: new URL(runtime.settings.publicBaseUrl),
    feePayers: await runtime.feePayers.get(),
    now: runtime.now(),
    error: refusal.reason,
  });
  return new PaymentOfferError(refusal.code, refusal.message, offer, {
    metadata: refusal.metadata ?? { payment_reason: refusal.reason },
    headers,
  });
}

/**
 * x402 on the inference routes, before they authenticate. A request carrying `PAYMENT-SIGNATURE` (v2)
 * or `X-PAYMENT` (v1) is paid for first (pay.ts); once credited, it goes on as the payer's wallet (its
 * credential replaced by the wallet JWT the answer also carries), so the route authenticates, admits
 * and serves it as any wallet request. A request with no credential and no payment gets the offer
 * (402). Requests with a credential and no payment pass untouched: nothing here runs on their path.
 */
export function x402Payments(runtime: X402Runtime): RequestHandler {
  return async (request, response, next) => {
    if (!isPaidRequest(request)) return next();
    const header = paymentHeaderOf(request.headers);
    if (!header) {
      const source = { headers: request.headers, query: request.query as Record<string, unknown> };
      if (extractSecret(source) !== undefined) return next();
      throw await offerError(runtime, request, {
        code: "x402_payment_required",
        message: "payment required: pay with x402 (PAYMENT-SIGNATURE) or send a wallet JWT or API key",
        reason: "PAYMENT-SIGNATURE header is required",
      });
    }
    const started = performance.now();
    const paid = await pay(runtime, request, response, header);
    const paymentMs = Math.round(performance.now() - started);
    // What the payment added to this request (check, verify, account, settle, credit), for the client.
    response.setHeader("Server-Timing", `x402;dur=${paymentMs}`);
    runtime.logger.info(
      { accountId: paid.accountId, network: paid.settlement.network, paymentMs },
      "x402 payment settled and credited",
    );
    actAsWallet(request, paid.jwt);
    next();
  };
}

async function pay(
  runtime: X402Runtime,
  request: Request,
  response: Response,
  header: PaymentHeader,
): Promise<PaidRequest> {
  const offers = paymentRequirements(runtime.settings, await runtime.feePayers.get());
  const payment = paymentToCheck(header, offers, resourceUrlOf(runtime, request));
  if (!payment)
    throw new GatewayError("service_unavailable", "no x402 network can be offered right now", {
      code: "facilitator_unavailable",
    });
  const responseHeader = payment.version === 1 ? X_PAYMENT_RESPONSE_HEADER : PAYMENT_RESPONSE_HEADER;
  try {
    const paid = await settlePayment(runtime, payment, runtime.clientAddress?.(request));
    response.setHeader(responseHeader, encodeX402Header(paid.settlement));
    return paid;
  } catch (error) {
    if (error instanceof PaymentCreditPending) {
      response.setHeader(responseHeader, encodeX402Header(error.paid.settlement));
      throw error.error;
    }
    if (!(error instanceof PaymentRefused)) throw error;
    const headers = error.settlement ? { [responseHeader]: encodeX402Header(error.settlement) } : {};
    throw await offerError(
      runtime,
      request,
      { code: error.code, message: error.message, reason: error.reason },
      headers,
    );
  }
}

/** The request continues as the payer's wallet: the JWT replaces whatever credential it carried. */
function actAsWallet(request: Request, jwt: string): void {
  delete request.headers["x-api-key"];
  delete request.headers["x-goog-api-key"];
  request.headers.authorization = `Bearer ${jwt}`;
}

/**
 * A wallet whose balance cannot cover the request gets the offer with its 402 (an API key's 402 stays
 * as it is: API-key accounts are topped up by their operator, not by x402).
 */
export function offerOnRefusal(runtime: X402Runtime): ErrorRequestHandler {
  return (error: unknown, request, _response, next) => {
    if (!isGatewayError(error) || error.code !== "insufficient_credits" || error instanceof PaymentOfferError)
      return next(error);
    let secret: string | undefined;
    try {
      secret = extractSecret({ headers: request.headers, query: request.query as Record<string, unknown> });
    } catch {
      return next(error);
    }
    if (!secret || !looksLikeJwt(secret)) return next(error);
    offerError(runtime, request, {
      code: "insufficient_credits",
      message: error.message,
      reason: "insufficient_credits",
      ...(error.metadata ? { metadata: { ...error.metadata, reason: "insufficient_credits" } } : {}),
    }).then(next, () => next(error));
  };
}
