import {
  decodeEnvelope,
  decodePayload,
  type EventSubscriber,
  type Subscription,
  USAGE_RECORDED_V1,
} from "@gw/events";
import type { Logger } from "@gw/logger";
import type { Kysely } from "kysely";
import type { GenerationsTables } from "../db/schema.js";
import { rowFromUsage } from "../records/usage-row.js";
import { insertGeneration } from "../repositories/generations.js";

export const USAGE_GROUP_ID = "generations";

/**
 * Records every usage event as a generation. The handler resolves only after the insert committed, so the
 * bus commits the offset after the row exists; a redelivered event inserts nothing. Events of other
 * types or versions on the topic are not ours to record and are skipped.
 */
export function consumeUsage(
  bus: EventSubscriber,
  options: { topic: string; db: Kysely<GenerationsTables>; logger: Logger },
): Promise<Subscription> {
  return bus.subscribe({
    topic: options.topic,
    groupId: USAGE_GROUP_ID,
    fromBeginning: true,
    handler: async (message) => {
      const envelope = decodeEnvelope(message.value);
      const usage = decodePayload(USAGE_RECORDED_V1, envelope);
      if (!usage) return;
      const inserted = await insertGeneration(options.db, rowFromUsage(envelope, usage));
      if (!inserted)
        options.logger.debug({ generationId: envelope.eventId }, "duplicate usage event ignored");
    },
  });
}
