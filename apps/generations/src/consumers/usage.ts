import {
  type ConsumedMessage,
  decodeEnvelope,
  decodePayload,
  type EventSubscriber,
  type Subscription,
  USAGE_CONSUMER_LINGER_MS,
  USAGE_RECORDED_V1,
} from "@gw/events";
import type { Logger } from "@gw/logger";
import type { Insertable, Kysely } from "kysely";
import { recordGenerations } from "../activity/record.js";
import type { GenerationsTable, GenerationsTables } from "../db/schema.js";
import { rowFromUsage } from "../records/usage-row.js";

export const USAGE_GROUP_ID = "generations";

/**
 * Records every usage event as a generation, a batch of events per statement, and adds it to the
 * activity rollup in the same transaction. The batch handler resolves only after the insert committed, so the bus commits the offsets after the rows exist; a redelivered
 * event inserts nothing. Events of other types or versions on the topic are not ours and are skipped.
 * An undecodable message fails its batch; the bus then retries the batch message by message and
 * dead-letters only that one.
 */
export function consumeUsage(
  bus: EventSubscriber,
  options: { topic: string; db: Kysely<GenerationsTables>; logger: Logger },
): Promise<Subscription> {
  return bus.subscribe({
    topic: options.topic,
    groupId: USAGE_GROUP_ID,
    fromBeginning: true,
    lingerMs: USAGE_CONSUMER_LINGER_MS,
    batchHandler: async (messages) => {
      const rows = firstOfEachId(messages.flatMap(rowOf));
      const inserted = await recordGenerations(options.db, rows);
      if (inserted < rows.length)
        options.logger.debug({ duplicates: rows.length - inserted }, "duplicate usage events ignored");
    },
  });
}

function rowOf(message: ConsumedMessage): Insertable<GenerationsTable>[] {
  const envelope = decodeEnvelope(message.value);
  const usage = decodePayload(USAGE_RECORDED_V1, envelope);
  return usage ? [rowFromUsage(envelope, usage)] : [];
}

/** The same event twice in one batch (a producer retry) is one row: the first copy, as one by one. */
function firstOfEachId(rows: Insertable<GenerationsTable>[]): Insertable<GenerationsTable>[] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    if (seen.has(row.id)) return false;
    seen.add(row.id);
    return true;
  });
}
