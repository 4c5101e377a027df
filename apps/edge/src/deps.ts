import type { PrincipalResolver } from "@gw/auth";
import type { TopicConfig } from "@gw/config";
import type { EventPublisher, EventSubscriber } from "@gw/events";
import type { Logger } from "@gw/logger";
import type { ByokProviders } from "./byok/providers.js";
import type { BatchClient } from "./clients/batches.js";
import type { BillingClient } from "./clients/billing.js";
import type { ControlPlaneUrls } from "./config.js";
import type { CatalogHolder } from "./planner/catalog-holder.js";
import type { ProviderRegistry } from "./providers/registry.js";

export interface Clock {
  now(): number;
}

/** Knobs with production defaults; tests shorten the timers and pin the routing draw. */
export interface EdgeSettings {
  /** Largest JSON body accepted (express/bytes syntax). Default 10mb. */
  bodyLimit: string;
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
  /** The gateway's public base URL for absolute links (batch results); else the request's own host. */
  publicBaseUrl?: string | undefined;
}

/**
 * Everything the edge runs on, as interfaces; the caller (main.ts or the standalone app) creates and
 * owns the connections behind them.
 */
export interface EdgeDeps {
  principals: PrincipalResolver;
  /** The accounts' own provider keys (BYOK); absent = the gateway's keys only. */
  byok?: ByokProviders;
  billing: BillingClient;
  catalog: CatalogHolder;
  bus: EventPublisher & EventSubscriber;
  topics: TopicConfig;
  providers: ProviderRegistry;
  controlPlane: ControlPlaneUrls;
  /** The generations app's batch store; absent = the batches API answers 503 and no batch is served. */
  batches?: BatchClient;
  logger: Logger;
  clock?: Clock;
  /** Names this edge's key-change consumer group; every edge must have its own. */
  instanceId?: string;
  settings?: Partial<EdgeSettings>;
}

export const DEFAULT_SETTINGS: EdgeSettings = {
  bodyLimit: "10mb",
  keepAliveMs: 15_000,
  random: Math.random,
  batchPollMs: 1_000,
  proxyHoldPico: 100_000_000_000n,
  leases: true,
};
