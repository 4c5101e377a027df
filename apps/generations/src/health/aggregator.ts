import { createHash } from "node:crypto";
import type { Logger } from "@gw/logger";
import type { EndpointHealth, GetEndpointHealthResponse } from "@gw/proto/generations/v1/health";
import type { Kysely } from "kysely";
import { figuresOf } from "./figures.js";
import { readWindow, sweepWindow } from "./store.js";
import type { HealthTables } from "./tables.js";

interface Computed {
  version: string;
  computedAtMs: number;
  endpoints: EndpointHealth[];
  byKey: Map<string, EndpointHealth>;
}

export interface HealthFiguresOptions {
  now?: () => number;
  /** How often the figures are recomputed from the buckets (the window moves on without events too). */
  refreshMs?: number;
  logger?: Pick<Logger, "warn">;
}

/**
 * The measured figures every edge routes on and the endpoints view shows: recomputed from the minute
 * buckets on a timer (every second), never per consumed batch, so reading the 30-minute window costs
 * the same whatever the traffic; held in memory by version, so an edge's poll and a view cost no query.
 */
export class HealthFigures {
  private computed: Computed = { version: "", computedAtMs: 0, endpoints: [], byKey: new Map() };
  private inFlight: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastSweep = 0;
  private readonly now: () => number;

  constructor(
    private readonly db: Kysely<HealthTables>,
    private readonly options: HealthFiguresOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  get(knownVersion: string): GetEndpointHealthResponse {
    const { version, computedAtMs, endpoints } = this.computed;
    const notModified = knownVersion !== "" && knownVersion === version;
    return {
      version,
      notModified,
      computedAtMs: BigInt(computedAtMs),
      endpoints: notModified ? [] : endpoints,
    };
  }

  /** One endpoint's figures, or undefined when it has had no attempt in the window. */
  figure(model: string, providerId: string): EndpointHealth | undefined {
    return this.computed.byKey.get(`${model}\n${providerId}`);
  }

  /** Recomputes now (coalesced with one already running). Never rejects. */
  refresh(): Promise<void> {
    this.inFlight ??= this.compute()
      .catch((error: unknown) => this.options.logger?.warn({ err: error }, "endpoint health refresh failed"))
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }

  async start(): Promise<void> {
    await this.refresh();
    this.timer ??= setInterval(() => void this.refresh(), this.options.refreshMs ?? 1_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }

  private async compute(): Promise<void> {
    const now = this.now();
    if (now - this.lastSweep > 60_000) {
      this.lastSweep = now;
      await sweepWindow(this.db, now);
    }
    const endpoints = figuresOf(await readWindow(this.db, now), now);
    const version = createHash("sha256").update(JSON.stringify(endpoints)).digest("hex").slice(0, 16);
    this.computed = {
      version,
      computedAtMs: now,
      endpoints,
      byKey: new Map(endpoints.map((endpoint) => [`${endpoint.model}\n${endpoint.providerId}`, endpoint])),
    };
  }
}
