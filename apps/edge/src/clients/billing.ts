import {
  type AcquireLeaseRequest,
  type AcquireLeaseResponse,
  type AdmitRequest,
  type AdmitResponse,
  BillingServiceClient,
  type GetUsageRequest,
  type GetUsageResponse,
  type ReleaseRequest,
  type ReleaseResponse,
  type ReturnLeaseRequest,
  type ReturnLeaseResponse,
  type SettleRequest,
  type SettleResponse,
} from "@gw/proto/billing/v1/billing";
import { clientOptions, insecureCredentials, type ServiceTokenIssuer, unaryCall } from "@gw/rpc";

/** The edge's view of BillingService: admission on the hot path, settlement and usage off it. */
export interface BillingClient {
  admit(request: AdmitRequest): Promise<AdmitResponse>;
  settle(request: SettleRequest): Promise<SettleResponse>;
  release(request: ReleaseRequest): Promise<ReleaseResponse>;
  getUsage(request: GetUsageRequest): Promise<GetUsageResponse>;
  acquireLease(request: AcquireLeaseRequest): Promise<AcquireLeaseResponse>;
  returnLease(request: ReturnLeaseRequest): Promise<ReturnLeaseResponse>;
}

export interface ConnectedBillingClient extends BillingClient {
  close(): void;
}

export function connectBillingClient(
  address: string,
  options: { timeoutMs?: number; issuer?: ServiceTokenIssuer | undefined } = {},
): ConnectedBillingClient {
  const client = new BillingServiceClient(
    address,
    insecureCredentials(),
    clientOptions(options.issuer, "billing"),
  );
  const defaults = { timeoutMs: options.timeoutMs ?? 3_000 };
  const admit = unaryCall(client, client.admit, defaults);
  const settle = unaryCall(client, client.settle, defaults);
  const release = unaryCall(client, client.release, defaults);
  const getUsage = unaryCall(client, client.getUsage, defaults);
  const acquireLease = unaryCall(client, client.acquireLease, defaults);
  const returnLease = unaryCall(client, client.returnLease, defaults);
  return {
    admit: (request) => admit(request),
    settle: (request) => settle(request),
    release: (request) => release(request),
    getUsage: (request) => getUsage(request),
    acquireLease: (request) => acquireLease(request),
    returnLease: (request) => returnLease(request),
    close: () => client.close(),
  };
}
