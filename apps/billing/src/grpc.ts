import * as grpc from "@grpc/grpc-js";
import { BillingServiceService } from "@gw/proto/billing/v1/billing";
import { type BillingContext, type BillingDeps, billingContext } from "./deps.js";
import { billingService } from "./rpc/billing-service.js";

/** BillingService, added but not bound. */
export function createGrpcServer(
  deps: BillingDeps,
  context: BillingContext = billingContext(deps),
): grpc.Server {
  const server = new grpc.Server();
  server.addService(BillingServiceService, billingService(context));
  return server;
}
