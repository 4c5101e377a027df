import { randomUUID } from "node:crypto";
import type { Subscription } from "@gw/events";
import { type Listening, listen, type Readiness } from "@gw/http";
import { createEdgeHttp } from "./app.js";
import { startBatchWorker } from "./batches/worker.js";
import { CONSOLE_PATH } from "./console/index.js";
import { createEdgeContext } from "./context.js";
import type { EdgeDeps } from "./deps.js";
import { expressBorn, hotPathListener } from "./hot-path.js";
import { observeEdgeHttp } from "./http-metrics.js";

export interface EdgeListenOptions {
  host: string;
  /** 0 picks a free port. */
  httpPort: number;
}

export interface RunningEdge {
  httpUrl: string;
  /** The web console (`<httpUrl>/console/`), or undefined when it is not served (CONSOLE_ENABLED=false). */
  consoleUrl: string | undefined;
  /** /readyz's checks: the standalone adds its inner apps' readiness here. */
  readiness: Readiness;
  /**
   * Stops serving: /readyz answers 503 draining, the listener closes, requests under way get until the
   * shutdown deadline (then they are cut, and metered as cancelled), settlements complete and leases
   * go back to billing. The deps stay open.
   */
  stop(): Promise<void>;
}

/**
 * Loads the catalogue, subscribes to key changes (each edge with its own consumer group, so every
 * edge drops a changed key) and starts serving HTTP. The edge serves no gRPC.
 */
// Batch requests one edge serves at once, and how long one stays claimed: longer than the upstream
// total timeout, so a live edge never loses a request it is still serving.
const BATCH_CONCURRENCY = 4;
const BATCH_LEASE_MS = 15 * 60_000;
// After the deadline cut them, handlers only measure and publish; this bounds a handler stuck elsewhere.
const HANDLER_GRACE_MS = 5_000;

export async function startEdge(deps: EdgeDeps, options: EdgeListenOptions): Promise<RunningEdge> {
  const context = createEdgeContext(deps);
  await deps.catalog.start();
  await deps.measuredHealth?.start();
  let subscription: Subscription | undefined;
  let byokSubscription: Subscription | undefined;
  let listening: Listening;
  const instanceId = deps.instanceId ?? `edge-${randomUUID()}`;
  try {
    subscription = await deps.principals.subscribeToKeyChanges(deps.bus, deps.topics.keyChanges, instanceId);
    byokSubscription = await deps.byok?.subscribe(deps.bus, deps.topics.keyChanges, instanceId);
    const http = createEdgeHttp(deps, context);
    listening = await listen(
      hotPathListener(http, context),
      options.host,
      options.httpPort,
      expressBorn(http.app),
    );
    observeEdgeHttp(listening.server);
  } catch (error) {
    await subscription?.stop();
    await byokSubscription?.stop();
    await deps.catalog.stop();
    await deps.measuredHealth?.stop();
    throw error;
  }
  const batchWorker = deps.batches
    ? startBatchWorker(context, deps.batches, {
        pollMs: context.settings.batchPollMs,
        concurrency: BATCH_CONCURRENCY,
        leaseMs: BATCH_LEASE_MS,
      })
    : undefined;
  const consoleUrl = context.settings.console ? `${listening.url}${CONSOLE_PATH}/` : undefined;
  // The split-plane edge's only startup line naming its URLs, so the console's is here as the
  // embedded default's banner prints it.
  deps.logger.info({ url: listening.url, console: consoleUrl }, "edge listening");
  return {
    httpUrl: listening.url,
    consoleUrl,
    readiness: context.readiness,
    stop: async () => {
      // Readiness first, so the load balancer stops sending work while what is under way finishes.
      context.readiness.drain();
      await batchWorker?.stop();
      const deadlineMs = context.settings.shutdownDeadlineMs;
      await listening.close(deadlineMs);
      // A stream cut at the deadline measures and publishes its usage after its socket closed.
      if (!(await context.inFlight.idle(HANDLER_GRACE_MS)))
        deps.logger.warn(
          { running: context.inFlight.count },
          "handlers still running after the shutdown deadline",
        );
      // Settlements finish, then every budget lease goes back to billing.
      await context.admission.close();
      await subscription?.stop();
      await byokSubscription?.stop();
      await deps.catalog.stop();
      await deps.measuredHealth?.stop();
    },
  };
}
