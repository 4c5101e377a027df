import {
  type ConsumedMessage,
  decodeEnvelope,
  decodePayload,
  type Envelope,
  type EventSubscriber,
  type Subscription,
  USAGE_CONSUMER_LINGER_MS,
  USAGE_CONSUMER_MAX_BATCH,
  USAGE_RECORDED_V1,
  type UsageRecorded,
} from "@gw/events";
import type { Logger } from "@gw/logger";
import type { Insertable } from "kysely";
import type { Pool } from "../db/prepared.js";
import type { GenerationsTable } from "../db/schema.js";
import { eventSamples } from "../health/event-samples.js";
import type { EventSamples } from "../health/store.js";
import { rowFromUsage } from "../records/usage-row.js";
import { recordUsage } from "../repositories/record-usage.js";

/** The one consumer group of the generations app on the usage topic. */
export const USAGE_GROUP_ID = "generations";

export interface ConsumeUsageOptions {
  topic: string;
  /** Default USAGE_GROUP_ID; a test on a shared broker passes its own so no other run joins its group. */
  groupId?: string | undefined;
  pool: Pool;
  logger: Logger;
  /**
   * The catalogue's endpoints as last received (KnownEndpoints.current): with it, each new record's
   * attempts at those endpoints are added to endpoint health in the same statement; undefined (no set
   * yet, or no health in this instance) keeps no samples.
   */
  knownEndpoints?: (() => ReadonlySet<string> | undefined) | undefined;
  now?: () => number;
}

interface Decoded {
  envelope: Envelope;
  usage: UsageRecorded;
  row: Insertable<GenerationsTable>;
}

/**
 * Each usage event is read once here and stored as a generation with what is derived from it (the
 * activity rollup and endpoint health) in one statement per batch, from the records that statement
 * inserts: a redelivered event inserts nothing and so counts nowhere twice. The batch handler resolves
 * only after the statement committed, so the bus commits the offsets after the rows exist. Events of
 * other types or versions on the topic are not ours and are skipped. An undecodable message fails its
 * batch; the bus then retries the batch message by message and dead-letters only that one.
 */
export function consumeUsage(bus: EventSubscriber, options: ConsumeUsageOptions): Promise<Subscription> {
  const now = options.now ?? Date.now;
  return bus.subscribe({
    topic: options.topic,
    groupId: options.groupId ?? USAGE_GROUP_ID,
    fromBeginning: true,
    lingerMs: USAGE_CONSUMER_LINGER_MS,
    maxBatchSize: USAGE_CONSUMER_MAX_BATCH,
    batchHandler: async (messages) => {
      const all = messages.flatMap(decoded);
      // Every delivery, redeliveries and repeats included, by event id: what the crash suite counts
      // records against (off unless the service logs at debug; the ids are built only then).
      if (all.length > 0 && options.logger.isLevelEnabled("debug"))
        options.logger.debug(
          { eventIds: all.map((event) => event.envelope.eventId) },
          "usage events delivered",
        );
      const events = firstOfEachId(all);
      const known = options.knownEndpoints?.();
      const at = now();
      const samples: EventSamples[] = known
        ? events.flatMap((event) => eventSamples(event.envelope, event.usage, known, at) ?? [])
        : [];
      const inserted = await recordUsage(
        options.pool,
        events.map((event) => event.row),
        samples,
      );
      if (inserted < events.length)
        options.logger.debug({ duplicates: events.length - inserted }, "duplicate usage events ignored");
    },
  });
}

function decoded(message: ConsumedMessage): Decoded[] {
  const envelope = decodeEnvelope(message.value);
  const usage = decodePayload(USAGE_RECORDED_V1, envelope);
  return usage ? [{ envelope, usage, row: rowFromUsage(envelope, usage) }] : [];
}

/** The same event twice in one batch (a producer retry) is one row: the first copy, as one by one. */
function firstOfEachId(events: Decoded[]): Decoded[] {
  const seen = new Set<string>();
  return events.filter((event) => {
    if (seen.has(event.row.id)) return false;
    seen.add(event.row.id);
    return true;
  });
}
