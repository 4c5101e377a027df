import {
  CatalogServiceClient,
  type GetSnapshotRequest,
  type GetSnapshotResponse,
} from "@gw/proto/catalog/v1/catalog";
import { clientOptions, insecureCredentials, type ServiceTokenIssuer, unaryCall } from "@gw/rpc";

/** CatalogService.GetSnapshot: the edge's only source of models, endpoints and prices. */
export type CatalogSource = (request: GetSnapshotRequest) => Promise<GetSnapshotResponse>;

export function connectCatalogSource(
  address: string,
  options: { timeoutMs?: number; issuer?: ServiceTokenIssuer | undefined } = {},
): { source: CatalogSource; close(): void } {
  const client = new CatalogServiceClient(
    address,
    insecureCredentials(),
    clientOptions(options.issuer, "keys"),
  );
  // A full snapshot is larger than an auth answer; give it more time than the hot-path calls.
  const call = unaryCall(client, client.getSnapshot, { timeoutMs: options.timeoutMs ?? 10_000 });
  return { source: (request) => call(request), close: () => client.close() };
}
