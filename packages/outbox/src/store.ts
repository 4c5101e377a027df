import type { BusMessage } from "@gw/events";
import { type Kysely, sql } from "kysely";
import type { OutboxTables } from "./schema.js";

/** A message read back from the outbox, with the id that orders its delivery. */
export interface StoredMessage extends BusMessage {
  id: bigint;
}

/** Rows of a topic that no durable group holds kept at most (like a broker's size-based retention). */
export const RETAINED_WITHOUT_DURABLE_GROUPS = 10_000;

/**
 * The outbox's SQL: one multi-row insert per batch, the start-up read of what is not yet delivered,
 * group offsets and pruning. Nothing here decides when; the bus does.
 */
export class OutboxStore {
  constructor(private readonly db: Kysely<OutboxTables>) {}

  /**
   * Writes a batch in one statement (one round trip, committed when it returns). The caller keeps one
   * insert in flight, so ids follow commit order.
   */
  async append(messages: readonly BusMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.db
      .insertInto("events")
      .values(
        messages.map((message) => ({
          topic: message.topic,
          key: message.key,
          value: message.value,
          headers: JSON.stringify(message.headers) as unknown as Record<string, string>,
        })),
      )
      .execute();
  }

  /** A topic's stored events after `afterId`, in id order (a consumer group's next read). */
  async read(topic: string, afterId: bigint, limit: number): Promise<StoredMessage[]> {
    const rows = await this.db
      .selectFrom("events")
      .select(["id", "topic", "key", "value", "headers"])
      .where("topic", "=", topic)
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      topic: row.topic,
      key: row.key,
      value: new Uint8Array(row.value),
      headers: row.headers,
    }));
  }

  /** The newest id of a topic (0 when it has none): where a group that skips the past starts. */
  async lastId(topic: string): Promise<bigint> {
    const row = await this.db
      .selectFrom("events")
      .select((eb) => eb.fn.max("id").as("last"))
      .where("topic", "=", topic)
      .executeTakeFirst();
    return row?.last ?? 0n;
  }

  /** A durable group's saved position on a topic (0 when it never saved one: it reads from the start). */
  async offset(topic: string, groupId: string): Promise<bigint> {
    const row = await this.db
      .selectFrom("group_offsets")
      .select("delivered_id")
      .where("topic", "=", topic)
      .where("group_id", "=", groupId)
      .executeTakeFirst();
    return row?.delivered_id ?? 0n;
  }

  /** Moves groups' offsets forward (never back: a late write of an older offset changes nothing). */
  async saveOffsets(
    offsets: readonly { topic: string; groupId: string; deliveredId: bigint }[],
  ): Promise<void> {
    if (offsets.length === 0) return;
    await this.db
      .insertInto("group_offsets")
      .values(
        offsets.map((offset) => ({
          topic: offset.topic,
          group_id: offset.groupId,
          delivered_id: offset.deliveredId,
        })),
      )
      .onConflict((conflict) =>
        conflict.columns(["topic", "group_id"]).doUpdateSet({
          delivered_id: sql<bigint>`greatest(group_offsets.delivered_id, excluded.delivered_id)`,
          updated_at: sql<Date>`now()`,
        }),
      )
      .execute();
  }

  /** Marks groups as seen now: a group this process consumes with is never stale (see prune). */
  async touch(groups: readonly { topic: string; groupId: string }[]): Promise<void> {
    if (groups.length === 0) return;
    await sql`
      update group_offsets set updated_at = now()
      where (topic, group_id) in (${sql.join(groups.map((group) => sql`(${group.topic}, ${group.groupId})`))})`.execute(
      this.db,
    );
  }

  /** Groups not seen (touched or moved) for `staleMs`. */
  async staleGroups(staleMs: number): Promise<{ topic: string; groupId: string }[]> {
    const rows = await sql<{ topic: string; group_id: string }>`
      select topic, group_id from group_offsets
      where updated_at < now() - make_interval(secs => ${staleMs / 1000})
      order by topic, group_id`.execute(this.db);
    return rows.rows.map((row) => ({ topic: row.topic, groupId: row.group_id }));
  }

  /**
   * Deletes what every durable group of a topic has applied and is older than the retention (a group
   * that joins a little later still finds recent events, as on a broker); a topic no durable group reads keeps its
   * newest RETAINED_WITHOUT_DURABLE_GROUPS rows. With `staleMs`, a group not seen for that long (a
   * consumer that was removed) counts as no group: it no longer holds the topic back. Returns how many
   * rows went.
   */
  async prune(retentionMs: number, staleMs?: number): Promise<number> {
    const fresh =
      staleMs === undefined ? sql`true` : sql`updated_at >= now() - make_interval(secs => ${staleMs / 1000})`;
    const consumed = await sql<{ count: string }>`
      with held as (
        select topic, min(delivered_id) as delivered_id from group_offsets where ${fresh} group by topic
      ), gone as (
        delete from events e using held h
        where e.topic = h.topic and e.id <= h.delivered_id
          and e.published_at < now() - make_interval(secs => ${retentionMs / 1000})
        returning 1
      ) select count(*)::text as count from gone`.execute(this.db);
    const unread = await sql<{ count: string }>`
      with ranked as (
        select id, row_number() over (partition by topic order by id desc) as newer
        from events where topic not in (select topic from group_offsets where ${fresh})
      ), gone as (
        delete from events e using ranked r
        where e.id = r.id and r.newer > ${RETAINED_WITHOUT_DURABLE_GROUPS} returning 1
      ) select count(*)::text as count from gone`.execute(this.db);
    return Number(consumed.rows[0]?.count ?? 0) + Number(unread.rows[0]?.count ?? 0);
  }
}
