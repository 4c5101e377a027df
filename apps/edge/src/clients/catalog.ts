import {
  CatalogServiceClient,
  type GetSnapshotRequest,
  type GetSnapshotResponse,
} from "@gw/proto/catalog/v1/catalog";
import { connectClient, type ServiceTokenIssuer } from "@gw/rpc";

/** CatalogService.GetSnapshot: the edge's only source of models, endpoints and prices. */
export type CatalogSource = (request: GetSnapshotRequest) => Promise<GetSnapshotResponse>;

export function connectCatalogSource(
  address: string,
  options: { timeoutMs?: number; issuer?: ServiceTokenIssuer | undefined } = {},
): { source: CatalogSource; close(): void } {
  // A full snapshot is larger than an auth answer; give it more time than the hot-path calls.
  const { issuer, timeoutMs = 10_000 } = options;
  const client = connectClient(CatalogServiceClient, address, { audience: "keys", issuer, timeoutMs });
  return { source: (request) => client.getSnapshot(request), close: client.close };
}
