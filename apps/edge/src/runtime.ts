import { LeaseBook } from "./admission/lease-book.js";
import { DEFAULT_SETTINGS, type EdgeDeps, type EdgeSettings } from "./deps.js";
import type { PipelineDeps } from "./pipeline/deps.js";
import { ProviderHealth } from "./planner/health.js";
import { Meter } from "./usage/meter.js";

/** The edge's own in-process state, built once per app from its deps. */
export interface EdgeRuntime {
  settings: EdgeSettings;
  now: () => number;
  health: ProviderHealth;
  meter: Meter;
  /** Budget leases: requests admitted without a remote call (see admission/lease-book.ts). */
  leases: LeaseBook;
  pipeline: PipelineDeps;
}

export function createRuntime(deps: EdgeDeps): EdgeRuntime {
  const settings = { ...DEFAULT_SETTINGS, ...deps.settings };
  const clock = deps.clock;
  const now = clock ? () => clock.now() : Date.now;
  const health = new ProviderHealth(now);
  const leases = new LeaseBook({
    billing: deps.billing,
    logger: deps.logger,
    now,
    settings: { enabled: settings.leases },
  });
  const meter = new Meter({
    billing: deps.billing,
    leases,
    bus: deps.bus,
    usageTopic: deps.topics.usage,
    logger: deps.logger,
  });
  return {
    settings,
    now,
    health,
    meter,
    leases,
    pipeline: {
      providers: deps.providers,
      health,
      meter,
      now,
      keepAliveMs: settings.keepAliveMs,
      logger: deps.logger,
    },
  };
}
