import type { TopicConfig } from "@gw/config";
import type { Database } from "@gw/db";
import type { EventBus } from "@gw/events";
import type { Logger } from "@gw/logger";
import type { ServiceAuth } from "@gw/rpc";

/**
 * What every control-plane app is given; the caller (main.ts, standalone, a test) owns every
 * connection. An app's own deps add to it.
 */
export interface ControlPlaneDeps<Tables> {
  database: Database<Tables>;
  bus: EventBus;
  topics: TopicConfig;
  logger: Logger;
  /**
   * Service-to-service authentication (main.ts always sets it): REST answers only the edge, gRPC
   * each method's callers (the app's caller policy). Unset in tests that exercise the app alone.
   */
  serviceAuth?: ServiceAuth | undefined;
  /** BODY_TIMEOUT_MS: a request body still arriving after this long is a 408 (default 10 s). */
  bodyTimeoutMs?: number | undefined;
}
