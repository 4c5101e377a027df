import type { IncomingMessage } from "node:http";
import type { EventPublisher } from "@gw/events";
import type { Logger } from "@gw/logger";
import type { PaymentControlPlane } from "../clients/payments.js";
import { FeePayers } from "./fee-payers.js";
import type { X402Runtime } from "./middleware.js";
import { RecentAuthorizations } from "./recent-authorizations.js";
import type { X402Settings } from "./settings.js";

/** What the edge is given to take x402 payments (absent: X402_ENABLED=false, no offers, payments ignored). */
export interface EdgePaymentDeps {
  settings: X402Settings;
  controlPlane: PaymentControlPlane;
}

export function createX402Runtime(
  payments: EdgePaymentDeps,
  shared: {
    publisher: EventPublisher;
    paymentsTopic: string;
    logger: Logger;
    now: () => number;
    clientAddress?: (request: IncomingMessage) => string;
  },
): X402Runtime {
  return {
    ...payments,
    ...shared,
    seen: new RecentAuthorizations(),
    feePayers: new FeePayers(
      payments.settings.facilitator,
      payments.settings.networks.map((network) => network.network),
      shared.logger,
      shared.now,
    ),
  };
}
