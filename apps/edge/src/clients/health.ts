import {
  EndpointHealthServiceClient,
  type GetEndpointHealthRequest,
  type GetEndpointHealthResponse,
} from "@gw/proto/catalog/v1/health";
import { connectClient, type ServiceTokenIssuer } from "@gw/rpc";

/** EndpointHealthService.GetEndpointHealth on the keys app (its health aggregator's figures). */
export type HealthSource = (request: GetEndpointHealthRequest) => Promise<GetEndpointHealthResponse>;

/** EndpointHealthService.GetEndpointHealth on the keys app, polled in the background (never per request). */
export function connectHealthSource(
  address: string,
  options: { timeoutMs?: number; issuer?: ServiceTokenIssuer | undefined } = {},
): { source: HealthSource; close(): void } {
  const { issuer, timeoutMs = 5_000 } = options;
  const client = connectClient(EndpointHealthServiceClient, address, { audience: "keys", issuer, timeoutMs });
  return { source: (request) => client.getEndpointHealth(request), close: client.close };
}
