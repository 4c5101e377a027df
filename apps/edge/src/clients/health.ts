import {
  EndpointHealthServiceClient,
  type GetEndpointHealthRequest,
  type GetEndpointHealthResponse,
} from "@gw/proto/catalog/v1/health";
import { clientOptions, insecureCredentials, type ServiceTokenIssuer, unaryCall } from "@gw/rpc";

/** EndpointHealthService.GetEndpointHealth on the keys app (its health aggregator's figures). */
export type HealthSource = (request: GetEndpointHealthRequest) => Promise<GetEndpointHealthResponse>;

/** EndpointHealthService.GetEndpointHealth on the keys app, polled in the background (never per request). */
export function connectHealthSource(
  address: string,
  options: { timeoutMs?: number; issuer?: ServiceTokenIssuer | undefined } = {},
): { source: HealthSource; close(): void } {
  const client = new EndpointHealthServiceClient(
    address,
    insecureCredentials(),
    clientOptions(options.issuer, "keys"),
  );
  const call = unaryCall(client, client.getEndpointHealth, { timeoutMs: options.timeoutMs ?? 5_000 });
  return { source: (request) => call(request), close: () => client.close() };
}
