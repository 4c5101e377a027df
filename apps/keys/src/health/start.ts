import type { EventSubscriber } from "@gw/events";
import type { Kysely } from "kysely";
import type { CatalogSnapshots } from "../catalog/snapshots.js";
import { consumeHealth, type HealthFigures } from "./aggregator.js";
import type { HealthTables } from "./tables.js";

/**
 * Starts the health aggregator of this keys instance: the usage consumer (group `endpoint-health`) and
 * the figures' refresh loop. Every keys instance runs both; the group shares the partitions among them
 * and each recomputes the same figures from the shared buckets.
 */
export async function startHealthAggregator(input: {
  bus: EventSubscriber;
  topic: string;
  db: Kysely<HealthTables>;
  figures: HealthFigures;
  snapshots: CatalogSnapshots;
}): Promise<{ stop(): Promise<void> }> {
  await input.figures.start();
  const subscription = await consumeHealth(input.bus, {
    topic: input.topic,
    db: input.db,
    figures: input.figures,
    knownEndpoints: async () => {
      const { content } = await input.snapshots.current();
      return new Set(
        content.models.flatMap((model) =>
          model.endpoints.map((endpoint) => `${model.id}\n${endpoint.providerId}`),
        ),
      );
    },
  });
  return {
    stop: async () => {
      await subscription.stop();
      await input.figures.stop();
    },
  };
}
