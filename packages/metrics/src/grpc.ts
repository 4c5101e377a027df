import { Histogram } from "prom-client";
import { FAST_BUCKETS, registry } from "./registry.js";

const server = new Histogram({
  name: "gw_grpc_server_duration_seconds",
  help: "gRPC calls served, by method path and status code name (errors: code != OK).",
  labelNames: ["method", "code"] as const,
  buckets: FAST_BUCKETS,
  registers: [registry],
});

const client = new Histogram({
  name: "gw_grpc_client_duration_seconds",
  help: "gRPC calls made, by method path and status code name (errors: code != OK).",
  labelNames: ["method", "code"] as const,
  buckets: FAST_BUCKETS,
  registers: [registry],
});

/** `method` is the call's full path (`/gateway.billing.v1.BillingService/Admit`): from the proto, bounded. */
export function recordGrpcServerCall(method: string, code: string, seconds: number): void {
  server.observe({ method, code }, seconds);
}

export function recordGrpcClientCall(method: string, code: string, seconds: number): void {
  client.observe({ method, code }, seconds);
}
