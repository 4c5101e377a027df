import type { Generated, Insertable, Selectable } from "kysely";

/** The embedded default's outbox lives in its own schema, beside the apps' schemas. */
export const OUTBOX_SCHEMA = "outbox";

/** One published event; `id` is the delivery order (one writer, one insert in flight). */
export interface OutboxEventsTable {
  id: Generated<bigint>;
  topic: string;
  key: string;
  value: Uint8Array;
  headers: Record<string, string>;
  published_at: Generated<Date>;
}

/** How far each durable consumer group has applied each topic: every id up to `delivered_id`. */
export interface OutboxGroupOffsetsTable {
  topic: string;
  group_id: string;
  delivered_id: bigint;
  updated_at: Generated<Date>;
}

export interface OutboxTables {
  events: OutboxEventsTable;
  group_offsets: OutboxGroupOffsetsTable;
}

export type OutboxEventRow = Selectable<OutboxEventsTable>;
export type NewOutboxEvent = Insertable<OutboxEventsTable>;
