import type { Logger } from "@gw/logger";
import {
  CatalogServiceClient,
  type GetSnapshotRequest,
  type GetSnapshotResponse,
} from "@gw/proto/catalog/v1/catalog";
import { connectClient, type ServiceTokenIssuer } from "@gw/rpc";

/** The catalogue's endpoints (`model\nprovider`): the health aggregator keeps attempts at these only. */
export interface KnownEndpoints {
  known(): Promise<ReadonlySet<string>>;
}

/** CatalogService.GetSnapshot on the keys app, which owns the catalogue. */
export type CatalogSource = (request: GetSnapshotRequest) => Promise<GetSnapshotResponse>;

/**
 * The catalogue's endpoint set, asked of the keys app once per consumed batch with the version held
 * (an unchanged catalogue answers not_modified, one version-row read there), so an operator's change
 * counts from the next batch on. Concurrent asks share one call; when keys cannot answer, the last set
 * is kept, and before any set arrived the batch fails and is redelivered.
 */
export class CatalogEndpoints implements KnownEndpoints {
  private version = "";
  private endpoints: ReadonlySet<string> | undefined;
  private inFlight: Promise<ReadonlySet<string>> | undefined;

  constructor(
    private readonly source: CatalogSource,
    private readonly logger?: Pick<Logger, "warn">,
  ) {}

  known(): Promise<ReadonlySet<string>> {
    this.inFlight ??= this.fetch().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetch(): Promise<ReadonlySet<string>> {
    try {
      const response = await this.source({ knownVersion: this.version });
      if (response.notModified && this.endpoints) return this.endpoints;
      this.endpoints = new Set(
        response.models.flatMap((model) =>
          model.endpoints.map((endpoint) => `${model.id}\n${endpoint.providerId}`),
        ),
      );
      this.version = response.version;
      return this.endpoints;
    } catch (error) {
      if (!this.endpoints) throw error;
      this.logger?.warn({ err: error }, "catalogue unavailable: endpoint health keeps the last endpoint set");
      return this.endpoints;
    }
  }
}

/** A gRPC client of the keys app's CatalogService, as the generations app's KnownEndpoints. */
export function connectCatalogEndpoints(
  address: string,
  options: {
    timeoutMs?: number;
    issuer?: ServiceTokenIssuer | undefined;
    logger?: Pick<Logger, "warn">;
  } = {},
): { endpoints: KnownEndpoints; close(): void } {
  const { issuer, timeoutMs = 10_000, logger } = options;
  // A full snapshot is larger than an auth answer; give it more time than the hot-path calls.
  const client = connectClient(CatalogServiceClient, address, { audience: "keys", issuer, timeoutMs });
  return {
    endpoints: new CatalogEndpoints((request) => client.getSnapshot(request), logger),
    close: client.close,
  };
}
