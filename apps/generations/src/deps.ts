import type { PrincipalResolver } from "@gw/auth";
import type { TopicConfig } from "@gw/config";
import type { Database } from "@gw/db";
import type { EventBus } from "@gw/events";
import type { Logger } from "@gw/logger";
import type { ServiceAuth } from "@gw/rpc";
import type { GenerationsTables } from "./db/schema.js";
import type { KnownEndpoints } from "./health/known-endpoints.js";
import type { RetentionOptions } from "./retention/sweeper.js";

/** What the generations app is given; the caller (main.ts, standalone, a test) owns every connection. */
export interface GenerationsDeps {
  database: Database<GenerationsTables>;
  bus: EventBus;
  topics: TopicConfig;
  logger: Logger;
  /** Authenticates callers of the REST route (KeyService.Authenticate behind a cache). */
  resolver: PrincipalResolver;
  /**
   * The catalogue's endpoints (the keys app's CatalogService; main.ts and standalone always set it):
   * with it the usage consumer adds each new record's attempts to endpoint health; without it (tests of
   * other behaviour) the figures stay empty.
   */
  knownEndpoints?: KnownEndpoints | undefined;
  /**
   * The usage consumer's group (default `generations`, one per deployment). Tests on a shared broker
   * pass a name of their own: kafkajs members of one group that subscribe to different topics take each
   * other's partitions, and the events of the test's topic go unread.
   */
  usageGroupId?: string | undefined;
  /** Defaults to 90 days, swept hourly in batches of 1000. */
  retention?: RetentionOptions;
  /**
   * Service-to-service authentication (main.ts always sets it): REST answers only the edge, gRPC each method's callers (grpc.ts).
   * Unset in tests that exercise the app alone.
   */
  serviceAuth?: ServiceAuth | undefined;
  /** BODY_TIMEOUT_MS: a request body still arriving after this long is a 408 (default 10 s). */
  bodyTimeoutMs?: number | undefined;
}
