import { GatewayError } from "@gw/errors";
import type { Logger } from "@gw/logger";
import type { CatalogSource } from "../clients/catalog.js";
import { CatalogSnapshot } from "./snapshot.js";

export interface CatalogHolderOptions {
  refreshMs?: number;
  logger?: Pick<Logger, "info" | "warn">;
  now?: () => number;
}

export interface CatalogStatus {
  loaded: boolean;
  version: string | undefined;
  lastRefreshAt: number | undefined;
  lastError: string | undefined;
}

/**
 * Holds the current catalogue snapshot. It is loaded at start and refreshed by version in the
 * background (an unchanged catalogue costs one tiny RPC); requests only ever read the snapshot in
 * memory, so the catalogue service is never on the request path.
 */
export class CatalogHolder {
  private snapshot: CatalogSnapshot | undefined;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<boolean> | undefined;
  private lastRefreshAt: number | undefined;
  private lastError: string | undefined;
  private readonly refreshMs: number;
  private readonly now: () => number;

  constructor(
    private readonly source: CatalogSource,
    private readonly options: CatalogHolderOptions = {},
  ) {
    this.refreshMs = options.refreshMs ?? 5_000;
    this.now = options.now ?? Date.now;
  }

  current(): CatalogSnapshot | undefined {
    return this.snapshot;
  }

  /** The snapshot for a request; before the first load succeeds, inference is unavailable (503). */
  require(): CatalogSnapshot {
    if (this.snapshot) return this.snapshot;
    throw new GatewayError("service_unavailable", "the model catalogue is not loaded yet", {
      code: "catalog_unavailable",
    });
  }

  status(): CatalogStatus {
    return {
      loaded: this.snapshot !== undefined,
      version: this.snapshot?.version,
      lastRefreshAt: this.lastRefreshAt,
      lastError: this.lastError,
    };
  }

  /** Fetches if the version moved; resolves true when a new snapshot was installed. Never rejects. */
  refresh(): Promise<boolean> {
    this.inFlight ??= this.fetch().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** First load (awaited, but a failure only leaves the edge unready) and then the background loop. */
  async start(): Promise<void> {
    await this.refresh();
    if (this.timer) return;
    this.timer = setInterval(() => void this.refresh(), this.refreshMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }

  private async fetch(): Promise<boolean> {
    try {
      const response = await this.source({ knownVersion: this.snapshot?.version ?? "" });
      this.lastRefreshAt = this.now();
      if (this.lastError !== undefined) this.options.logger?.info({}, "catalogue refresh recovered");
      this.lastError = undefined;
      if (response.notModified && this.snapshot) return false;
      this.snapshot = new CatalogSnapshot(response);
      this.options.logger?.info(
        { version: response.version, models: response.models.length },
        "catalogue snapshot installed",
      );
      return true;
    } catch (error) {
      // One warning per outage, not one per poll.
      if (this.lastError === undefined) {
        this.options.logger?.warn({ err: error }, "catalogue refresh failed; keeping the previous snapshot");
      }
      this.lastError = error instanceof Error ? error.message : String(error);
      return false;
    }
  }
}
