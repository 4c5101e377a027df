import type { Logger } from "@gw/logger";
import {
  type EndpointHealth,
  EndpointHealthServiceClient,
  type GetEndpointHealthRequest,
  type GetEndpointHealthResponse,
} from "@gw/proto/generations/v1/health";
import { connectClient, type ServiceTokenIssuer } from "@gw/rpc";

/** EndpointHealthService.GetEndpointHealth on the generations app, which computes the figures. */
export type EndpointHealthSource = (request: GetEndpointHealthRequest) => Promise<GetEndpointHealthResponse>;

/**
 * The view polls ten times as often as an edge (every 1 s), so it is never more than ~100 ms behind
 * what any edge routes on: a client that sees an edge route around an endpoint and then asks the view
 * sees the same figures. An unchanged poll is cheap (generations compares a version held in memory and
 * answers not_modified), and there are few keys instances.
 */
export const DEFAULT_REFRESH_MS = 100;

/**
 * How long after start a failed poll is expected rather than an outage: keys starts before generations
 * (the embedded default starts generations after keys; a rollout may too), so the first polls find
 * nothing listening. Past it, or once an answer came, a failure is an outage and warned about.
 */
export const STARTUP_GRACE_MS = 30_000;

export interface EndpointHealthViewOptions {
  /** How often the figures are asked for (default 100 ms: see DEFAULT_REFRESH_MS). */
  refreshMs?: number;
  logger?: Pick<Logger, "warn" | "info">;
  /** The clock (tests). */
  now?: () => number;
}

/**
 * The endpoints view's copy of the measured endpoint health: polled from the generations app in the
 * background with the version held (unchanged figures answer not_modified), so a request reads memory
 * and never waits on a call. Without a source (tests of other behaviour) or before the first answer,
 * every endpoint has no figures and the view shows `null`; a failed poll keeps the last figures.
 */
export class EndpointHealthView {
  private byKey = new Map<string, EndpointHealth>();
  private version = "";
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private failing = false;
  private answered = false;
  private startedAt = 0;

  constructor(
    private readonly source: EndpointHealthSource | undefined,
    private readonly options: EndpointHealthViewOptions = {},
  ) {}

  /** One endpoint's figures, or undefined when it has had no attempt in the window. */
  figure(model: string, providerId: string): EndpointHealth | undefined {
    return this.byKey.get(`${model}\n${providerId}`);
  }

  /** Polls now (coalesced with one already running). Never rejects. */
  refresh(): Promise<void> {
    this.inFlight ??= this.fetch().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Starts the background poll; the first answer is not awaited, so keys starts without generations. */
  start(): void {
    if (!this.source || this.timer) return;
    this.startedAt = this.clock();
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.options.refreshMs ?? DEFAULT_REFRESH_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }

  private async fetch(): Promise<void> {
    if (!this.source) return;
    try {
      const response = await this.source({ knownVersion: this.version });
      if (this.failing) this.options.logger?.info({}, "endpoint health poll recovered");
      this.failing = false;
      this.answered = true;
      if (response.notModified) return;
      this.byKey = new Map(
        response.endpoints.map((endpoint) => [`${endpoint.model}\n${endpoint.providerId}`, endpoint]),
      );
      this.version = response.version;
    } catch (error) {
      if (this.starting()) return;
      // One line per outage, not one a second.
      if (!this.failing) this.options.logger?.warn({ err: error }, "endpoint health poll failed");
      this.failing = true;
    }
  }

  /** Before the first answer and within the grace after start: generations may not listen yet. */
  private starting(): boolean {
    return !this.answered && this.clock() - this.startedAt < STARTUP_GRACE_MS;
  }

  private clock(): number {
    return (this.options.now ?? Date.now)();
  }
}

/** A gRPC client of the generations app's EndpointHealthService. */
export function connectEndpointHealth(
  address: string,
  options: { timeoutMs?: number; issuer?: ServiceTokenIssuer | undefined } = {},
): { source: EndpointHealthSource; close(): void } {
  const { issuer, timeoutMs = 5_000 } = options;
  const client = connectClient(EndpointHealthServiceClient, address, {
    audience: "generations",
    issuer,
    timeoutMs,
  });
  return { source: (request) => client.getEndpointHealth(request), close: client.close };
}
