import type { Logger } from "@gw/logger";
import type { EndpointHealth as EndpointHealthMessage, Percentiles } from "@gw/proto/generations/v1/health";
import type { HealthSource } from "../clients/health.js";

/** One endpoint's figures over the last 30 minutes, as every edge sees them. */
export interface MeasuredFigures {
  attempts: number;
  uptime: number;
  /** Time to first token, ms; undefined until measured. */
  latencyMs: Percentiles | undefined;
  /** Output tokens per second; undefined until measured. */
  throughput: Percentiles | undefined;
  status: "ok" | "degraded" | "down";
}

export type Percentile = keyof Percentiles;

export function endpointKey(modelId: string, providerId: string): string {
  return `${modelId}\n${providerId}`;
}

const STATUSES = new Set(["ok", "degraded", "down"]);

function figuresOf(message: EndpointHealthMessage): MeasuredFigures {
  return {
    attempts: message.attempts,
    uptime: message.uptime,
    latencyMs: message.latencyMs,
    throughput: message.throughput,
    status: STATUSES.has(message.status) ? (message.status as MeasuredFigures["status"]) : "ok",
  };
}

export interface MeasuredHealthOptions {
  refreshMs?: number;
  logger?: Pick<Logger, "info" | "warn">;
}

/**
 * The control plane's measured endpoint health, held in memory and refreshed by version in the
 * background (every second by default), like the catalogue: routing reads it, never waits on it. Until
 * the first answer, or for an endpoint with no traffic yet, there are no figures and routing falls back
 * to its defaults; a failed refresh keeps the last figures.
 */
export class MeasuredHealthHolder {
  private figures = new Map<string, MeasuredFigures>();
  private version = "";
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<boolean> | undefined;
  private failing = false;

  constructor(
    private readonly source: HealthSource,
    private readonly options: MeasuredHealthOptions = {},
  ) {}

  get(modelId: string, providerId: string): MeasuredFigures | undefined {
    return this.figures.get(endpointKey(modelId, providerId));
  }

  /** Resolves true when new figures were installed. Never rejects. */
  refresh(): Promise<boolean> {
    this.inFlight ??= this.fetch().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  async start(): Promise<void> {
    await this.refresh();
    if (this.timer) return;
    this.timer = setInterval(() => void this.refresh(), this.options.refreshMs ?? 1_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }

  private async fetch(): Promise<boolean> {
    try {
      const response = await this.source({ knownVersion: this.version });
      if (this.failing) this.options.logger?.info({}, "endpoint health refresh recovered");
      this.failing = false;
      if (response.notModified) return false;
      this.figures = new Map(
        response.endpoints.map((message) => [
          endpointKey(message.model, message.providerId),
          figuresOf(message),
        ]),
      );
      this.version = response.version;
      return true;
    } catch (error) {
      // One warning per outage; routing keeps the last figures and its local circuits meanwhile.
      if (!this.failing) this.options.logger?.warn({ err: error }, "endpoint health refresh failed");
      this.failing = true;
      return false;
    }
  }
}
