import type { HealthFigures } from "./aggregator.js";
import type { KnownEndpoints } from "./known-endpoints.js";

/**
 * Starts the health side of this generations instance: the figures' refresh loop and, on the same
 * period, the catalogue's endpoint set the usage consumer filters samples by. The samples themselves are
 * written by the usage consumer with the records (consumers/usage.ts). Every instance recomputes the
 * same figures from the shared buckets. The first set and figures are asked for before it resolves.
 */
export async function startHealthAggregator(input: {
  figures: HealthFigures;
  endpoints: KnownEndpoints;
  refreshMs?: number;
}): Promise<{ stop(): Promise<void> }> {
  await input.endpoints.refresh();
  await input.figures.start();
  const timer = setInterval(() => void input.endpoints.refresh(), input.refreshMs ?? 1_000);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await input.figures.stop();
    },
  };
}
