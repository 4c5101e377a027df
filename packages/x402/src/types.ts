// The wire types of x402 v2, taken from the official package so that what the gateway builds, checks and
// forwards is exactly what x402 clients and facilitators speak (no parallel definitions that could drift).
export type {
  Network,
  PaymentPayload,
  PaymentPayloadV1,
  PaymentRequired,
  PaymentRequiredV1,
  PaymentRequirements,
  PaymentRequirementsV1,
  ResourceInfo,
  SettleResponse,
  SupportedKind,
  SupportedResponse,
  VerifyResponse,
} from "@x402/core/types";

import type {
  PaymentPayload,
  PaymentRequirements,
  SettleResponse,
  SupportedResponse,
  VerifyResponse,
} from "@x402/core/types";

/**
 * What the gateway needs from a facilitator: the same three calls as x402's own `FacilitatorClient`
 * (`@x402/core/server`), so either of ours (HTTP or in-process) or x402's own client fits.
 *
 * `verify` and `settle` answer the facilitator's verdict (`isValid: false` / `success: false` with a
 * reason) as a value; they throw only when no verdict could be had (timeout, transport, malformed
 * answer): then a `FacilitatorError`.
 */
export interface Facilitator {
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
  getSupported(): Promise<SupportedResponse>;
}
