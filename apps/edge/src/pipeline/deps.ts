import type { Logger } from "@gw/logger";
import type { ProviderHealth } from "../planner/health.js";
import type { ProviderRegistry } from "../providers/registry.js";
import type { Meter } from "../usage/meter.js";

/** What the inference pipeline needs beyond the request itself. */
export interface PipelineDeps {
  providers: ProviderRegistry;
  health: ProviderHealth;
  meter: Meter;
  now: () => number;
  keepAliveMs: number;
  logger: Logger;
}
