import { BillingServiceClient } from "@gw/proto/billing/v1/billing";
import { type ConnectedClient, connectClient, type PromiseClient, type ServiceTokenIssuer } from "@gw/rpc";

/** The edge's view of BillingService: admission on the hot path, settlement and usage off it. */
export type BillingClient = Pick<
  PromiseClient<BillingServiceClient>,
  "admit" | "settle" | "release" | "getUsage" | "acquireLease" | "returnLease"
>;

export type ConnectedBillingClient = BillingClient & Pick<ConnectedClient<BillingServiceClient>, "close">;

export function connectBillingClient(
  address: string,
  options: { timeoutMs?: number; issuer?: ServiceTokenIssuer | undefined } = {},
): ConnectedBillingClient {
  const { issuer, timeoutMs = 3_000 } = options;
  return connectClient(BillingServiceClient, address, { audience: "billing", issuer, timeoutMs });
}
