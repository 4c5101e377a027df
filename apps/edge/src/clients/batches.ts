import { BatchServiceClient } from "@gw/proto/generations/v1/batches";
import { type ConnectedClient, connectClient, type PromiseClient, type ServiceTokenIssuer } from "@gw/rpc";

/** The edge's view of the generations app's BatchService. */
export type BatchClient = PromiseClient<BatchServiceClient>;

export type ConnectedBatchClient = ConnectedClient<BatchServiceClient>;

export function connectBatchClient(
  address: string,
  options: { timeoutMs?: number; issuer?: ServiceTokenIssuer | undefined } = {},
): ConnectedBatchClient {
  const { issuer, timeoutMs = 3_000 } = options;
  // Results of a large batch take longer to read than a hot-path call.
  const slow = Math.max(timeoutMs, 30_000);
  const timeouts = { create: slow, results: slow };
  return connectClient(BatchServiceClient, address, { audience: "generations", issuer, timeoutMs, timeouts });
}
