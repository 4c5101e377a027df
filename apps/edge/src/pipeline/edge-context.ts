import type { PrincipalResolver } from "@gw/auth";
import type { EventPublisher, EventSubscriber } from "@gw/events";
import { DEFAULT_BODY_TIMEOUT_MS, type InFlight, type Readiness } from "@gw/http";
import type { Logger } from "@gw/logger";
import type { Admission } from "../admission/admission.js";
import type { CatalogHolder } from "../catalog/catalog-holder.js";
import type { BatchClient } from "../clients/batches.js";
import type { BillingClient } from "../clients/billing.js";
import type { ConsoleSettings } from "../console/serve.js";
import { DEFAULT_FLOOD_LIMITS, type FloodLimits } from "../middleware/flood-guard.js";
import type { EndpointHealth } from "../planning/health.js";
import type { Planner } from "../planning/planner.js";
import type { ProviderRegistry } from "../providers/registry.js";
import type { Meter } from "../usage/meter.js";
import type { WebSearchSettings } from "./web-search.js";

/** Knobs with production defaults; tests shorten the timers and pin the routing draw. */
export interface EdgeSettings {
  /** Largest JSON body accepted (express/bytes syntax). Default 10mb. */
  bodyLimit: string;
  /** A body still arriving after this long is answered 408 `body_timeout`. Default 10 s. */
  bodyTimeoutMs: number;
  /** SSE keep-alive comment interval while the upstream is silent. Default 15 s. */
  keepAliveMs: number;
  /** Uniform in [0, 1), for the weighted provider draw. */
  random: () => number;
  /** How often an idle edge asks the batch store for batch requests to serve. Default 1 s. */
  batchPollMs: number;
  /** The provider proxy's hold for a call the catalogue cannot price. Default $0.10. */
  proxyHoldPico: bigint;
  /** Admit requests under budget leases from billing (see admission/lease-book.ts). Default on. */
  leases: boolean;
  /** The edge's flood guard: token buckets per client address and per credential (FLOOD_*). */
  flood: FloodLimits;
  /** TRUSTED_PROXIES: peers whose X-Forwarded-For names the client address (CIDR ranges). Default none. */
  trustedProxies: readonly string[];
  /** The gateway's public base URL for absolute links (batch results); else the request's own host. */
  publicBaseUrl?: string | undefined;
  /** The web console served at /console (CONSOLE_DIR); absent = not served (CONSOLE_ENABLED=false). */
  console?: ConsoleSettings | undefined;
  /** BYOK_FEE_PERCENT: what a BYOK request is charged, in percent of the provider's price. Default 0. */
  byokFeePercent: number;
  /** SHUTDOWN_DEADLINE_MS: on stop, how long requests under way (open streams) may run before they are cut. */
  shutdownDeadlineMs: number;
  /** SERVER_TIMING: a `Server-Timing` header with the edge's stage durations on every answer. Default off. */
  serverTiming: boolean;
  /** The web plugin's search API (WEB_SEARCH_*); absent = the web plugin and `:online` are a 400. */
  webSearch?: WebSearchSettings | undefined;
}

export const DEFAULT_SETTINGS: EdgeSettings = {
  bodyLimit: "10mb",
  bodyTimeoutMs: DEFAULT_BODY_TIMEOUT_MS,
  keepAliveMs: 15_000,
  random: Math.random,
  batchPollMs: 1_000,
  proxyHoldPico: 100_000_000_000n,
  leases: true,
  flood: DEFAULT_FLOOD_LIMITS,
  trustedProxies: [],
  byokFeePercent: 0,
  shutdownDeadlineMs: 20_000,
  serverTiming: false,
};

/**
 * Everything a request's handling needs, built once per edge (see ../context.ts): the connections the
 * caller owns (principals, billing, catalogue, bus, providers, batches) and the edge's own in-process
 * state (planner and provider health, admission with its leases, the meter). Routes, the pipeline and
 * the batch worker all take this one object.
 */
export interface EdgeContext {
  settings: EdgeSettings;
  now: () => number;
  logger: Logger;
  principals: PrincipalResolver;
  catalog: CatalogHolder;
  providers: ProviderRegistry;
  planner: Planner;
  health: EndpointHealth;
  admission: Admission;
  meter: Meter;
  /** For usage lookups (`/v1/key`); spend itself goes through `admission`. */
  billing: BillingClient;
  bus: EventPublisher & EventSubscriber;
  /** The generations app's batch store; absent = the batches API answers 503 and no batch is served. */
  batches: BatchClient | undefined;
  /** /readyz's checks and the draining flag a stop sets first. */
  readiness: Readiness;
  /** Route handlers still running: a stop waits for them (and their usage) after the listener closed. */
  inFlight: InFlight;
}
