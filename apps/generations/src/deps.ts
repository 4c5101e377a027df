import type { PrincipalResolver } from "@gw/auth";
import type { TopicConfig } from "@gw/config";
import type { Database } from "@gw/db";
import type { EventBus } from "@gw/events";
import type { Logger } from "@gw/logger";
import type { ServiceAuth } from "@gw/rpc";
import type { GenerationsTables } from "./db/schema.js";
import type { RetentionOptions } from "./retention/sweeper.js";

/** What the generations app is given; the caller (main.ts, standalone, a test) owns every connection. */
export interface GenerationsDeps {
  database: Database<GenerationsTables>;
  bus: EventBus;
  topics: TopicConfig;
  logger: Logger;
  /** Authenticates callers of the REST route (KeyService.Authenticate behind a cache). */
  resolver: PrincipalResolver;
  /** Defaults to 90 days, swept hourly in batches of 1000. */
  retention?: RetentionOptions;
  /**
   * Service-to-service authentication (main.ts always sets it): REST and gRPC answer only the edge.
   * Unset in tests that exercise the app alone.
   */
  serviceAuth?: ServiceAuth | undefined;
  /** BODY_TIMEOUT_MS: a request body still arriving after this long is a 408 (default 10 s). */
  bodyTimeoutMs?: number | undefined;
}
