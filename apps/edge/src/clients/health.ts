import {
  EndpointHealthServiceClient,
  type GetEndpointHealthRequest,
  type GetEndpointHealthResponse,
} from "@gw/proto/generations/v1/health";
import { connectClient, type ServiceTokenIssuer } from "@gw/rpc";

/** EndpointHealthService.GetEndpointHealth on the generations app (its health aggregator's figures). */
export type HealthSource = (request: GetEndpointHealthRequest) => Promise<GetEndpointHealthResponse>;

/** EndpointHealthService.GetEndpointHealth on the generations app, polled in the background (never per request). */
export function connectHealthSource(
  address: string,
  options: { timeoutMs?: number; issuer?: ServiceTokenIssuer | undefined } = {},
): { source: HealthSource; close(): void } {
  const { issuer, timeoutMs = 5_000 } = options;
  const client = connectClient(EndpointHealthServiceClient, address, {
    audience: "generations",
    issuer,
    timeoutMs,
  });
  return { source: (request) => client.getEndpointHealth(request), close: client.close };
}

/**
 * An edge configured without GENERATIONS_GRPC_ADDRESS has no health figures to poll: every endpoint is
 * unmeasured and routing keeps the price order, as before any traffic.
 */
export const unmeasuredHealth: HealthSource = async () => ({
  version: "",
  notModified: true,
  computedAtMs: 0n,
  endpoints: [],
});
