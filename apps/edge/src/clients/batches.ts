import {
  type Batch,
  type BatchRef,
  type BatchResponse,
  type BatchResultsResponse,
  BatchServiceClient,
  type ClaimRequest,
  type ClaimResponse,
  type CompleteRequest,
  type CreateBatchRequest,
  type DeleteBatchResponse,
  type ListBatchesRequest,
  type ListBatchesResponse,
} from "@gw/proto/generations/v1/batches";
import { clientOptions, insecureCredentials, type ServiceTokenIssuer, unaryCall } from "@gw/rpc";

/** The edge's view of the generations app's BatchService. */
export interface BatchClient {
  create(request: CreateBatchRequest): Promise<Batch>;
  get(request: BatchRef): Promise<BatchResponse>;
  list(request: ListBatchesRequest): Promise<ListBatchesResponse>;
  cancel(request: BatchRef): Promise<BatchResponse>;
  delete(request: BatchRef): Promise<DeleteBatchResponse>;
  results(request: BatchRef): Promise<BatchResultsResponse>;
  claim(request: ClaimRequest): Promise<ClaimResponse>;
  complete(request: CompleteRequest): Promise<unknown>;
}

export interface ConnectedBatchClient extends BatchClient {
  close(): void;
}

export function connectBatchClient(
  address: string,
  options: { timeoutMs?: number; issuer?: ServiceTokenIssuer | undefined } = {},
): ConnectedBatchClient {
  const client = new BatchServiceClient(
    address,
    insecureCredentials(),
    clientOptions(options.issuer, "generations"),
  );
  const defaults = { timeoutMs: options.timeoutMs ?? 3_000 };
  // Results of a large batch take longer to read than a hot-path call.
  const slow = { timeoutMs: Math.max(defaults.timeoutMs, 30_000) };
  return {
    create: unaryCall(client, client.create, slow),
    get: unaryCall(client, client.get, defaults),
    list: unaryCall(client, client.list, defaults),
    cancel: unaryCall(client, client.cancel, defaults),
    delete: unaryCall(client, client.delete, defaults),
    results: unaryCall(client, client.results, slow),
    claim: unaryCall(client, client.claim, defaults),
    complete: unaryCall(client, client.complete, defaults),
    close: () => client.close(),
  };
}
