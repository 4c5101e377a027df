import { connectDatabase, findRunningEmbeddedPostgres } from "@gw/db";
import { type GroupProgress, groupProgress } from "@gw/testing";
import { eventually } from "../processes.js";

/** billing's consumer group on the payments topic (apps/billing/src/consumers/payments.ts). */
const PAYMENTS_GROUP = "billing-payments";
/** The embedded default's payments topic (the config's default). */
const EMBEDDED_PAYMENTS_TOPIC = "gateway.payments.v1";

/** How far billing's payments consumer is through the `payment.settled` events published so far. */
export type PaymentEvents = () => Promise<GroupProgress>;

/** The split plane's: from the broker (the group commits an event's offset after its credit committed). */
export function brokerPaymentEvents(brokers: string[], topic: string): PaymentEvents {
  return () => groupProgress(brokers, topic, PAYMENTS_GROUP);
}

/** The embedded default's: from its PostgreSQL outbox (events by id, the group's delivered id). */
export function outboxPaymentEvents(dataDir: string): PaymentEvents {
  return async () => {
    const url = await findRunningEmbeddedPostgres(dataDir);
    if (!url) throw new Error("the embedded PostgreSQL is not running");
    const database = connectDatabase<unknown>({ url, schema: "public", maxConnections: 1 });
    try {
      const { rows } = await database.pool.query<{ published: string; committed: string }>(
        `select (select coalesce(max(id), 0) from outbox.events where topic = $1)::text as published,
                (select coalesce(max(delivered_id), 0) from outbox.group_offsets
                  where topic = $1 and group_id = $2)::text as committed`,
        [EMBEDDED_PAYMENTS_TOPIC, PAYMENTS_GROUP],
      );
      return { published: BigInt(rows[0]?.published ?? 0), committed: BigInt(rows[0]?.committed ?? 0) };
    } finally {
      await database.close();
    }
  };
}

/**
 * Waits until a `payment.settled` event published after `before` exists and billing's payments
 * consumer has handled everything published: a credit read after it counts what the event did too.
 */
export async function settledEventsConsumed(events: PaymentEvents, before: bigint): Promise<void> {
  await eventually(async () => {
    const now = await events();
    return now.published > before && now.committed >= now.published ? true : undefined;
  }, 30_000);
}
