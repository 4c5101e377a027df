import type { EventSubscriber } from "@gw/events";
import type { Kysely } from "kysely";
import { consumeHealth, type HealthFigures } from "./aggregator.js";
import type { KnownEndpoints } from "./known-endpoints.js";
import type { HealthTables } from "./tables.js";

/**
 * Starts the health aggregator of this generations instance: the usage consumer (group
 * `endpoint-health`, apart from the records' group) and the figures' refresh loop. Every generations
 * instance runs both; the group shares the partitions among them and each recomputes the same figures
 * from the shared buckets.
 */
export async function startHealthAggregator(input: {
  bus: EventSubscriber;
  topic: string;
  groupId?: string | undefined;
  db: Kysely<HealthTables>;
  figures: HealthFigures;
  endpoints: KnownEndpoints;
}): Promise<{ stop(): Promise<void> }> {
  await input.figures.start();
  const subscription = await consumeHealth(input.bus, {
    topic: input.topic,
    ...(input.groupId ? { groupId: input.groupId } : {}),
    db: input.db,
    figures: input.figures,
    knownEndpoints: () => input.endpoints.known(),
  });
  return {
    stop: async () => {
      await subscription.stop();
      await input.figures.stop();
    },
  };
}
