import type { BatchClient } from "../clients/batches.js";
import type { EdgeContext } from "../pipeline/edge-context.js";
import { executeBatchItem } from "./execute.js";

export interface BatchWorkerOptions {
  /** How often an idle edge asks for batch requests. */
  pollMs: number;
  /** Requests served at once by this edge. */
  concurrency: number;
  /** How long a claimed request stays with this edge before another may take it over. */
  leaseMs: number;
}

export interface BatchWorker {
  stop(): Promise<void>;
}

/**
 * Every edge serves batch requests in the background: it claims a few under a lease, serves each
 * through the normal request path and reports the result. A crashed edge's leases lapse and another
 * edge takes its requests over.
 */
export function startBatchWorker(
  context: EdgeContext,
  batches: BatchClient,
  options: BatchWorkerOptions,
): BatchWorker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const round = async (): Promise<number> => {
    const { items } = await batches.claim({ limit: options.concurrency, leaseMs: BigInt(options.leaseMs) });
    await Promise.all(
      items.map(async (item) => {
        const { outcome, result } = await executeBatchItem(context, item);
        await batches.complete({
          batchId: item.batchId,
          itemId: item.itemId,
          outcome,
          resultJson: JSON.stringify(result),
        });
      }),
    );
    return items.length;
  };

  const tick = async (): Promise<void> => {
    let claimed = 0;
    try {
      claimed = await round();
    } catch (error) {
      context.logger.warn({ err: error }, "batch round failed; retrying");
    }
    // A full round means more may be waiting: go again at once.
    if (!stopped) timer = setTimeout(schedule, claimed > 0 ? 0 : options.pollMs);
  };
  const schedule = () => {
    running = tick();
  };
  timer = setTimeout(schedule, options.pollMs);

  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
