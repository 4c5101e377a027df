import type { PrincipalResolver } from "@gw/auth";
import type { TopicConfig } from "@gw/config";
import type { EventPublisher, EventSubscriber } from "@gw/events";
import type { Logger } from "@gw/logger";
import type { CatalogHolder } from "./catalog/catalog-holder.js";
import type { BatchClient } from "./clients/batches.js";
import type { BillingClient } from "./clients/billing.js";
import type { ControlPlaneUrls } from "./clients/control-plane.js";
import type { MediaFetcher } from "./media/fetcher.js";
import type { EdgePaymentDeps } from "./payments/runtime.js";
import type { EdgeSettings } from "./pipeline/edge-context.js";
import type { ByokProviders } from "./planning/byok-credentials.js";
import type { MeasuredHealthHolder } from "./planning/measured-health.js";
import type { ProviderRegistry } from "./providers/registry.js";

export type { EdgeSettings } from "./pipeline/edge-context.js";

export interface Clock {
  now(): number;
}

/**
 * Everything the edge runs on, as interfaces; the caller (main.ts or the standalone app) creates and
 * owns the connections behind them. `createEdgeContext` (context.ts) adds the edge's own state.
 */
export interface EdgeDeps {
  principals: PrincipalResolver;
  /** The accounts' own provider keys (BYOK); absent = the gateway's keys only. */
  byok?: ByokProviders;
  billing: BillingClient;
  catalog: CatalogHolder;
  /** Every edge's measured endpoint health from the keys app; absent = this edge's circuits only. */
  measuredHealth?: MeasuredHealthHolder;
  bus: EventPublisher & EventSubscriber;
  topics: TopicConfig;
  providers: ProviderRegistry;
  controlPlane: ControlPlaneUrls;
  /** The generations app's batch store; absent = the batches API answers 503 and no batch is served. */
  batches?: BatchClient;
  logger: Logger;
  /** x402 payments (X402_ENABLED); absent = no offers and payment headers are ignored. */
  payments?: EdgePaymentDeps;
  clock?: Clock;
  /** Names this edge's key-change consumer group; every edge must have its own. */
  instanceId?: string;
  settings?: Partial<EdgeSettings>;
  /**
   * Fetches a caller's media URL when the target format needs the bytes (Gemini, Bedrock, OpenAI chat's
   * `file_data`); absent = refused, and endpoints needing such a fetch are left out of the plan.
   */
  mediaFetcher?: MediaFetcher;
}
