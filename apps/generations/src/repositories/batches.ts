import { randomBytes } from "node:crypto";
import { type Kysely, sql, type Transaction } from "kysely";
import type { GenerationsTables } from "../db/schema.js";

type Db = Kysely<GenerationsTables> | Transaction<GenerationsTables>;

/** Anthropic: results stay processing until the whole batch ends; batches expire after 24 hours. */
export const BATCH_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface BatchCounts {
  processing: number;
  succeeded: number;
  errored: number;
  canceled: number;
  expired: number;
}

export interface BatchView {
  id: string;
  status: "in_progress" | "canceling" | "ended";
  counts: BatchCounts;
  createdAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
  cancelInitiatedAt: Date | null;
}

export interface ClaimedItem {
  batchId: string;
  itemId: string;
  accountId: string;
  keyHash: string;
  customId: string;
  params: unknown;
}

const OPEN_STATES = ["pending", "running"];

export async function createBatch(
  db: Kysely<GenerationsTables>,
  input: { accountId: string; keyHash: string; items: { customId: string; params: unknown }[] },
  now: Date,
): Promise<BatchView> {
  const id = `msgbatch_${randomBytes(12).toString("hex")}`;
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto("message_batches")
      .values({
        id,
        account_id: input.accountId,
        key_hash: input.keyHash,
        created_at: now,
        expires_at: new Date(now.getTime() + BATCH_LIFETIME_MS),
      })
      .execute();
    await tx
      .insertInto("message_batch_items")
      .values(
        input.items.map((item) => ({
          batch_id: id,
          custom_id: item.customId,
          params: JSON.stringify(item.params),
        })),
      )
      .execute();
  });
  return (await findBatch(db, id, input.accountId)) as BatchView;
}

export async function findBatch(db: Db, id: string, accountId: string): Promise<BatchView | undefined> {
  const row = await db
    .selectFrom("message_batches")
    .selectAll()
    .where("id", "=", id)
    .where("account_id", "=", accountId)
    .executeTakeFirst();
  if (!row) return undefined;
  return view(row, await countsOf(db, [id]));
}

/** Newest first; `after_id` pages towards older batches, `before_id` towards newer ones. */
export async function listBatches(
  db: Db,
  accountId: string,
  page: { limit: number; beforeId: string | undefined; afterId: string | undefined },
): Promise<{ batches: BatchView[]; hasMore: boolean }> {
  let query = db.selectFrom("message_batches").selectAll().where("account_id", "=", accountId);
  const cursor = page.afterId ?? page.beforeId;
  if (cursor) {
    const anchor = await db
      .selectFrom("message_batches")
      .select(["created_at", "id"])
      .where("id", "=", cursor)
      .where("account_id", "=", accountId)
      .executeTakeFirst();
    if (anchor)
      query = page.afterId
        ? query.where(sql<boolean>`(created_at, id) < (${anchor.created_at}, ${anchor.id})`)
        : query.where(sql<boolean>`(created_at, id) > (${anchor.created_at}, ${anchor.id})`);
  }
  const newestFirst = !page.beforeId;
  const rows = await query
    .orderBy("created_at", newestFirst ? "desc" : "asc")
    .orderBy("id", newestFirst ? "desc" : "asc")
    .limit(page.limit + 1)
    .execute();
  const kept = rows.slice(0, page.limit);
  if (!newestFirst) kept.reverse();
  const counts = await countsOf(
    db,
    kept.map((row) => row.id),
  );
  return { batches: kept.map((row) => view(row, counts)), hasMore: rows.length > page.limit };
}

/** Pending requests are canceled at once; running ones finish; the batch ends when none is left. */
export async function cancelBatch(
  db: Kysely<GenerationsTables>,
  id: string,
  accountId: string,
  now: Date,
): Promise<BatchView | undefined> {
  const found = await findBatch(db, id, accountId);
  if (!found || found.endedAt) return found;
  await db.transaction().execute(async (tx) => {
    await lockBatch(tx, id);
    await tx
      .updateTable("message_batches")
      .set({ cancel_initiated_at: now })
      .where("id", "=", id)
      .where("cancel_initiated_at", "is", null)
      .execute();
    await tx
      .updateTable("message_batch_items")
      .set({ state: "canceled", result: JSON.stringify({ type: "canceled" }) })
      .where("batch_id", "=", id)
      .where("state", "=", "pending")
      .execute();
    await finishIfDone(tx, id, now);
  });
  return findBatch(db, id, accountId);
}

export async function deleteBatch(
  db: Db,
  id: string,
  accountId: string,
): Promise<"deleted" | "not_found" | "not_ended"> {
  const found = await findBatch(db, id, accountId);
  if (!found) return "not_found";
  if (!found.endedAt) return "not_ended";
  await db.deleteFrom("message_batches").where("id", "=", id).execute();
  return "deleted";
}

export async function batchResults(
  db: Db,
  id: string,
  accountId: string,
): Promise<{ customId: string; result: unknown }[] | "not_found" | "not_ended"> {
  const found = await findBatch(db, id, accountId);
  if (!found) return "not_found";
  if (!found.endedAt) return "not_ended";
  const rows = await db
    .selectFrom("message_batch_items")
    .select(["custom_id", "result"])
    .where("batch_id", "=", id)
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ customId: row.custom_id, result: row.result }));
}

/**
 * Hands out up to `limit` requests under a lease: pending ones, and running ones whose edge let the
 * lease lapse (it crashed). `SKIP LOCKED` lets several edges claim at once without sharing an item.
 * Requests of batches past their expiry are expired first.
 */
export async function claimItems(
  db: Kysely<GenerationsTables>,
  limit: number,
  leaseMs: number,
  now: Date,
): Promise<ClaimedItem[]> {
  await expireOverdue(db, now);
  return db.transaction().execute(async (tx) => {
    const rows = await tx
      .selectFrom("message_batch_items as item")
      .innerJoin("message_batches as batch", "batch.id", "item.batch_id")
      .select([
        "item.id",
        "item.batch_id",
        "item.custom_id",
        "item.params",
        "batch.account_id",
        "batch.key_hash",
      ])
      .where((eb) =>
        eb.or([
          eb("item.state", "=", "pending"),
          eb.and([eb("item.state", "=", "running"), eb("item.lease_until", "<", now)]),
        ]),
      )
      .orderBy("item.id")
      .limit(limit)
      .forUpdate("item")
      .skipLocked()
      .execute();
    if (rows.length === 0) return [];
    await tx
      .updateTable("message_batch_items")
      .set({ state: "running", lease_until: new Date(now.getTime() + leaseMs) })
      .where(
        "id",
        "in",
        rows.map((row) => row.id),
      )
      .execute();
    return rows.map((row) => ({
      batchId: row.batch_id,
      itemId: String(row.id),
      accountId: row.account_id,
      keyHash: row.key_hash,
      customId: row.custom_id,
      params: row.params,
    }));
  });
}

/** Records one request's result; the batch ends with its last open request. */
export async function completeItem(
  db: Kysely<GenerationsTables>,
  input: { batchId: string; itemId: string; outcome: string; result: unknown },
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await lockBatch(tx, input.batchId);
    await tx
      .updateTable("message_batch_items")
      .set({ state: input.outcome, result: JSON.stringify(input.result), lease_until: null })
      .where("id", "=", input.itemId as never)
      .where("batch_id", "=", input.batchId)
      .where("state", "=", "running")
      .execute();
    await finishIfDone(tx, input.batchId, now);
  });
}

async function expireOverdue(db: Kysely<GenerationsTables>, now: Date): Promise<void> {
  const overdue = await db
    .selectFrom("message_batches")
    .select("id")
    .where("ended_at", "is", null)
    .where("expires_at", "<", now)
    .execute();
  for (const { id } of overdue) {
    await db.transaction().execute(async (tx) => {
      await lockBatch(tx, id);
      await tx
        .updateTable("message_batch_items")
        .set({ state: "expired", result: JSON.stringify({ type: "expired" }) })
        .where("batch_id", "=", id)
        .where("state", "in", OPEN_STATES)
        .execute();
      await finishIfDone(tx, id, now);
    });
  }
}

/**
 * Serialises the writers of one batch. Without it two requests completing at once each see the
 * other still running (READ COMMITTED snapshots) and neither ends the batch.
 */
async function lockBatch(tx: Transaction<GenerationsTables>, batchId: string): Promise<void> {
  await tx.selectFrom("message_batches").select("id").where("id", "=", batchId).forUpdate().execute();
}

async function finishIfDone(tx: Db, batchId: string, now: Date): Promise<void> {
  await tx
    .updateTable("message_batches")
    .set({ ended_at: now })
    .where("id", "=", batchId)
    .where("ended_at", "is", null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("message_batch_items")
            .select("id")
            .where("batch_id", "=", batchId)
            .where("state", "in", OPEN_STATES),
        ),
      ),
    )
    .execute();
}

async function countsOf(db: Db, ids: readonly string[]): Promise<Map<string, Record<string, number>>> {
  const counts = new Map<string, Record<string, number>>();
  if (ids.length === 0) return counts;
  const rows = await db
    .selectFrom("message_batch_items")
    .select(["batch_id", "state", (eb) => eb.fn.countAll<string>().as("count")])
    .where("batch_id", "in", ids)
    .groupBy(["batch_id", "state"])
    .execute();
  for (const row of rows) {
    const entry = counts.get(row.batch_id) ?? {};
    entry[row.state] = Number(row.count);
    counts.set(row.batch_id, entry);
  }
  return counts;
}

function view(
  row: {
    id: string;
    created_at: Date;
    expires_at: Date;
    ended_at: Date | null;
    cancel_initiated_at: Date | null;
  },
  counts: Map<string, Record<string, number>>,
): BatchView {
  const states = counts.get(row.id) ?? {};
  const total = Object.values(states).reduce((sum, count) => sum + count, 0);
  const ended = row.ended_at !== null;
  return {
    id: row.id,
    status: ended ? "ended" : row.cancel_initiated_at ? "canceling" : "in_progress",
    // Requests count as processing until the whole batch has ended (Anthropic's semantics).
    counts: ended
      ? {
          processing: 0,
          succeeded: states.succeeded ?? 0,
          errored: states.errored ?? 0,
          canceled: states.canceled ?? 0,
          expired: states.expired ?? 0,
        }
      : { processing: total, succeeded: 0, errored: 0, canceled: 0, expired: 0 },
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    endedAt: row.ended_at,
    cancelInitiatedAt: row.cancel_initiated_at,
  };
}
