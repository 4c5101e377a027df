import {
  BillingServiceClient,
  type CreditPaymentResponse,
  type RecordUnsettledPaymentRequest,
  type RecordUnsettledPaymentResponse,
} from "@gw/proto/billing/v1/billing";
import type { PaymentSettled } from "@gw/proto/events/v1/payments";
import { type EnsureWalletAccountResponse, KeyServiceClient } from "@gw/proto/keys/v1/keys";
import { connectClient, type ServiceTokenIssuer } from "@gw/rpc";

/**
 * The two control-plane calls an x402 payment needs, and only a paying request makes: the payer's
 * account and JWT from keys, and the credit from billing (awaited, so the paid request is admitted).
 */
export interface PaymentControlPlane {
  ensureWalletAccount(walletAccountId: string, clientAddress: string): Promise<EnsureWalletAccountResponse>;
  creditPayment(payment: PaymentSettled): Promise<CreditPaymentResponse>;
  /** A settle without a verdict, kept by billing for its reconciler (nothing credited). */
  recordUnsettledPayment(request: RecordUnsettledPaymentRequest): Promise<RecordUnsettledPaymentResponse>;
}

export function connectPaymentControlPlane(
  addresses: { keys: string; billing: string },
  options: { timeoutMs: number; issuer?: ServiceTokenIssuer | undefined },
): PaymentControlPlane & { close(): void } {
  const keys = connectClient(KeyServiceClient, addresses.keys, { audience: "keys", ...options });
  const billing = connectClient(BillingServiceClient, addresses.billing, { audience: "billing", ...options });
  return {
    ensureWalletAccount: (walletAccountId, clientAddress) =>
      keys.ensureWalletAccount({ walletAccountId, clientAddress }),
    creditPayment: (payment) => billing.creditPayment({ payment }),
    recordUnsettledPayment: (request) => billing.recordUnsettledPayment(request),
    close: () => {
      keys.close();
      billing.close();
    },
  };
}
