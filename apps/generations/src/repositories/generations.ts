import { generationIdFloor } from "@gw/events";
import { type Insertable, type Kysely, sql } from "kysely";
import type { GenerationsTable, GenerationsTables } from "../db/schema.js";
import type { ListPosition } from "../records/cursor.js";
import type { GenerationRow } from "../records/usage-row.js";

/**
 * At-least-once delivery means the same event can arrive twice: the primary key makes the second insert
 * a no-op (a unique constraint, not a read-then-write). Returns whether a row was added.
 */
export async function insertGeneration(
  db: Kysely<GenerationsTables>,
  row: Insertable<GenerationsTable>,
): Promise<boolean> {
  const result = await db
    .insertInto("generations")
    .values(row)
    .onConflict((conflict) => conflict.column("id").doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/**
 * A batch of rows in one multi-row statement; rows already stored (redeliveries) are skipped by the same
 * primary key. The caller passes each id once: Postgres would skip an in-statement repeat too, but which
 * copy wins is then not defined. Returns how many rows were added.
 */
export async function insertGenerations(
  db: Kysely<GenerationsTables>,
  rows: readonly Insertable<GenerationsTable>[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await db
    .insertInto("generations")
    .values([...rows])
    .onConflict((conflict) => conflict.column("id").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}

/** The account filter is part of the query: another account's generation does not exist for the caller. */
export async function findGeneration(
  db: Kysely<GenerationsTables>,
  id: string,
  accountId: string,
): Promise<GenerationRow | undefined> {
  return db
    .selectFrom("generations")
    .selectAll()
    .where("id", "=", id)
    .where("account_id", "=", accountId)
    .executeTakeFirst();
}

/** How a request ended, as the list filters it (the console's Status column reads the same fields). */
export const GENERATION_STATUSES = ["completed", "error", "cancelled"] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

export interface GenerationListFilter {
  accountId: string;
  keyHash?: string | undefined;
  model?: string | undefined;
  provider?: string | undefined;
  status?: GenerationStatus | undefined;
  /** created_at >= from */
  from?: Date | undefined;
  /** created_at < to */
  to?: Date | undefined;
  /** Rows strictly after this position in the newest-first order. */
  after?: ListPosition | undefined;
  limit: number;
}

/** A listed row with its exact position (created_at to the microsecond), for the next page's cursor. */
export type ListedGeneration = GenerationRow & { position_at: string };

/**
 * The account's generations, newest first (created_at, then id, both descending: a total order, so a
 * keyset position is exact). Served by generations_account_listing_idx, or
 * generations_account_key_listing_idx with a key filter: an index range scan that stops after `limit`
 * rows, whatever the account's history. The account is part of the query, never an afterthought.
 */
export async function listGenerations(
  db: Kysely<GenerationsTables>,
  filter: GenerationListFilter,
): Promise<ListedGeneration[]> {
  let query = db
    .selectFrom("generations")
    .selectAll()
    .select(
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as("position_at"),
    )
    .where("account_id", "=", filter.accountId);
  if (filter.keyHash !== undefined) query = query.where("key_hash", "=", filter.keyHash);
  if (filter.model !== undefined) query = query.where("model", "=", filter.model);
  if (filter.provider !== undefined) query = query.where("provider", "=", filter.provider);
  // Cancelled first, then error, as the console labels a row; both are rare, so these are filters on
  // the account's listing index range, not indexes of their own.
  if (filter.status === "cancelled") query = query.where("cancelled", "=", true);
  if (filter.status === "error")
    query = query.where("cancelled", "=", false).where("finish_reason", "=", "error");
  if (filter.status === "completed")
    query = query
      .where("cancelled", "=", false)
      .where((eb) => eb.or([eb("finish_reason", "is", null), eb("finish_reason", "<>", "error")]));
  if (filter.from !== undefined) query = query.where("created_at", ">=", filter.from);
  if (filter.to !== undefined) query = query.where("created_at", "<", filter.to);
  const after = filter.after;
  if (after !== undefined) {
    query = query.where(sql<boolean>`(created_at, id) < (${after.at}::timestamptz, ${after.id})`);
  }
  return query.orderBy("created_at", "desc").orderBy("id", "desc").limit(filter.limit).execute();
}

/**
 * Deletes up to `batchSize` of the oldest rows of generations started before `cutoff`. Ids begin with
 * their start time and sort byte-wise (collation "C"), so the primary key finds them: a range scan
 * below the cutoff's id floor, with no index on created_at to pay for on every insert. Small batches
 * keep each statement's row locks few and short: never a table lock.
 */
export async function deleteBatchStartedBefore(
  db: Kysely<GenerationsTables>,
  cutoff: Date,
  batchSize: number,
): Promise<number> {
  const result = await db
    .deleteFrom("generations")
    .where("id", "in", (eb) =>
      eb
        .selectFrom("generations")
        .select("id")
        .where("id", "<", generationIdFloor(cutoff.getTime()))
        .orderBy("id")
        .limit(batchSize),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
