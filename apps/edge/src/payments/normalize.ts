import type { PaymentPayload, PaymentRequirements } from "@gw/x402";
import type { PaymentHeader } from "./headers.js";
import { caip2Of } from "./offers.js";

/** A client's payment in v2 form, next to the offer it is checked against. */
export interface PaymentToCheck {
  /** The x402 generation the client speaks (its answer header follows it). */
  version: 1 | 2;
  payload: PaymentPayload;
  requirement: PaymentRequirements;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/**
 * Pairs the client's payment with the offer it answers. v2 names the offer (`accepted`); v1 names only
 * the network, so the amount is read from the authorization. The best match is taken (same network,
 * amount, asset and payee, then fewer), so that the local check names the one thing that differs
 * instead of "no such offer". A v1 payload is restated in v2 form (same scheme payload and signature:
 * an EIP-3009 authorization is the same whatever the x402 generation).
 */
export function paymentToCheck(
  header: PaymentHeader,
  offers: readonly PaymentRequirements[],
  resourceUrl: string,
): PaymentToCheck | undefined {
  const payload = header.payload;
  const first = offers[0];
  if (!first) return undefined;
  if (payload.x402Version === 1) {
    const network = caip2Of(text(payload.network));
    const inner = isRecord(payload.payload) ? payload.payload : {};
    const authorization = isRecord(inner.authorization) ? inner.authorization : {};
    const requirement = bestOffer(offers, { network, amount: text(authorization.value) }) ?? first;
    return {
      version: 1,
      requirement,
      payload: {
        x402Version: 2,
        resource: { url: resourceUrl, description: "", mimeType: "application/json" },
        accepted: {
          ...requirement,
          scheme: text(payload.scheme),
          network: network as PaymentRequirements["network"],
        },
        payload: inner,
      },
    };
  }
  const accepted = isRecord(payload.accepted) ? payload.accepted : {};
  const requirement =
    bestOffer(offers, {
      network: text(accepted.network),
      amount: text(accepted.amount),
      asset: text(accepted.asset),
      payTo: text(accepted.payTo),
    }) ?? first;
  // Typed here, checked field by field by verifyPaymentLocally before anything trusts it.
  return { version: 2, requirement, payload: payload as unknown as PaymentPayload };
}

function bestOffer(
  offers: readonly PaymentRequirements[],
  wanted: { network: string; amount: string; asset?: string; payTo?: string },
): PaymentRequirements | undefined {
  const onNetwork = offers.filter((offer) => offer.network === wanted.network);
  const score = (offer: PaymentRequirements) =>
    (offer.amount === wanted.amount ? 4 : 0) +
    (wanted.asset !== undefined && offer.asset === wanted.asset ? 2 : 0) +
    (wanted.payTo !== undefined && offer.payTo === wanted.payTo ? 1 : 0);
  return [...onNetwork].sort((a, b) => score(b) - score(a))[0];
}
