import type { Logger } from "@gw/logger";
import {
  CatalogServiceClient,
  type GetSnapshotRequest,
  type GetSnapshotResponse,
} from "@gw/proto/catalog/v1/catalog";
import { connectClient, type ServiceTokenIssuer } from "@gw/rpc";

/**
 * The catalogue's endpoints (`model\nprovider`): endpoint health keeps attempts at these only. The
 * usage consumer reads the set it holds (`current`, no call per batch); `refresh` asks for it again.
 */
export interface KnownEndpoints {
  /** The last set received, or undefined before any arrived. */
  current(): ReadonlySet<string> | undefined;
  /** Asks the catalogue again; never rejects (a failure keeps the last set). */
  refresh(): Promise<void>;
}

/** CatalogService.GetSnapshot on the keys app, which owns the catalogue. */
export type CatalogSource = (request: GetSnapshotRequest) => Promise<GetSnapshotResponse>;

/**
 * The catalogue's endpoint set, asked of the keys app on the health figures' timer (every second) with
 * the version held (an unchanged catalogue answers not_modified, one version-row read there), so an
 * operator's change counts within a second, and a consumed batch costs no call. Concurrent refreshes
 * share one call; when keys cannot answer, the last set is kept.
 */
export class CatalogEndpoints implements KnownEndpoints {
  private version = "";
  private endpoints: ReadonlySet<string> | undefined;
  private inFlight: Promise<void> | undefined;
  /** Whether the last ask failed: a failure is logged when it starts, not every second. */
  private failing = false;

  constructor(
    private readonly source: CatalogSource,
    private readonly logger?: Pick<Logger, "warn">,
  ) {}

  current(): ReadonlySet<string> | undefined {
    return this.endpoints;
  }

  refresh(): Promise<void> {
    this.inFlight ??= this.fetch().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetch(): Promise<void> {
    try {
      const response = await this.source({ knownVersion: this.version });
      this.failing = false;
      if (response.notModified && this.endpoints) return;
      this.endpoints = new Set(
        response.models.flatMap((model) =>
          model.endpoints.map((endpoint) => `${model.id}\n${endpoint.providerId}`),
        ),
      );
      this.version = response.version;
    } catch (error) {
      if (this.failing) return;
      this.failing = true;
      this.logger?.warn(
        { err: error, held: this.endpoints !== undefined },
        "catalogue unavailable: endpoint health keeps the last endpoint set (none yet: no samples kept)",
      );
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
