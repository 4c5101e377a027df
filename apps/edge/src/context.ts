import { InFlight } from "@gw/http";
import { Admission } from "./admission/admission.js";
import type { EdgeDeps } from "./deps.js";
import { DEFAULT_SETTINGS, type EdgeContext } from "./pipeline/edge-context.js";
import { EndpointHealth } from "./planning/health.js";
import { Planner } from "./planning/planner.js";
import { edgeReadiness } from "./routes/ready.js";
import { Meter } from "./usage/meter.js";

/** The edge's one context object, built once per app from its deps (see pipeline/edge-context.ts). */
export function createEdgeContext(deps: EdgeDeps): EdgeContext {
  const settings = { ...DEFAULT_SETTINGS, ...deps.settings };
  const clock = deps.clock;
  const now = clock ? () => clock.now() : Date.now;
  // Without the control plane's figures (tests that build deps by hand) only this edge's circuits count.
  const measured = deps.measuredHealth ?? { get: () => undefined };
  const health = new EndpointHealth(measured, now);
  return {
    settings,
    now,
    logger: deps.logger,
    principals: deps.principals,
    catalog: deps.catalog,
    providers: deps.providers,
    planner: new Planner({
      catalog: deps.catalog,
      providers: deps.providers,
      byok: deps.byok,
      health,
      random: settings.random,
      mediaFetcher: deps.mediaFetcher,
    }),
    health,
    admission: new Admission({
      billing: deps.billing,
      logger: deps.logger,
      now,
      leases: settings.leases,
      charge: { byokFeePercent: settings.byokFeePercent },
    }),
    meter: new Meter({
      bus: deps.bus,
      usageTopic: deps.topics.usage,
      logger: deps.logger,
      charge: { byokFeePercent: settings.byokFeePercent },
    }),
    billing: deps.billing,
    bus: deps.bus,
    batches: deps.batches,
    readiness: edgeReadiness({ catalog: deps.catalog, bus: deps.bus }),
    inFlight: new InFlight(),
  };
}
