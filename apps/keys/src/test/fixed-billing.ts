import * as grpc from "@grpc/grpc-js";
import {
  type BillingServiceServer,
  BillingServiceService,
  type GetUsageResponse,
} from "@gw/proto/billing/v1/billing";
import { bindGrpcServer, shutdownGrpcServer } from "@gw/rpc";

/**
 * Billing's contract served with fixed numbers: the keys app's client side is what is under test, not
 * billing's accounting.
 */
export interface FixedBilling {
  address: string;
  /** Usage answered for a key hash; keys not set answer all zeros. */
  setKeyUsage(keyHash: string, usage: Partial<GetUsageResponse>): void;
  requests(): number;
  stop(): Promise<void>;
}

const ZERO: GetUsageResponse = {
  totalCreditsPico: 0n,
  totalUsagePico: 0n,
  isFreeTier: true,
  keyUsagePico: 0n,
  keyUsageDailyPico: 0n,
  keyUsageWeeklyPico: 0n,
  keyUsageMonthlyPico: 0n,
  keyByokUsagePico: 0n,
  keyByokUsageDailyPico: 0n,
  keyByokUsageWeeklyPico: 0n,
  keyByokUsageMonthlyPico: 0n,
  freeRequestsToday: 0,
  totalPurchasedPico: 0n,
};

export async function startFixedBilling(): Promise<FixedBilling> {
  const usage = new Map<string, GetUsageResponse>();
  let count = 0;
  const unimplemented = (_call: unknown, callback: grpc.sendUnaryData<never>) =>
    callback({ code: grpc.status.UNIMPLEMENTED, details: "not served by the fixed billing" });
  const service: BillingServiceServer = {
    admit: unimplemented,
    settle: unimplemented,
    release: unimplemented,
    acquireLease: unimplemented,
    returnLease: unimplemented,
    creditPayment: unimplemented,
    recordUnsettledPayment: unimplemented,
    grantCredits: unimplemented,
    getUsage: (call, callback) => {
      count++;
      callback(null, usage.get(call.request.keyHash) ?? ZERO);
    },
  };
  const server = new grpc.Server();
  server.addService(BillingServiceService, service);
  const port = await bindGrpcServer(server, "127.0.0.1", 0);
  return {
    address: `127.0.0.1:${port}`,
    setKeyUsage: (keyHash, values) => usage.set(keyHash, { ...ZERO, ...values }),
    requests: () => count,
    stop: () => shutdownGrpcServer(server, 100),
  };
}
