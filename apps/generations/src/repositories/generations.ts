import type { Insertable, Kysely } from "kysely";
import type { GenerationsTable, GenerationsTables } from "../db/schema.js";
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

/**
 * Deletes up to `batchSize` of the oldest rows created before `cutoff`, found through the created_at index.
 * Small batches keep each statement's row locks few and short: never a table lock.
 */
export async function deleteBatchCreatedBefore(
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
        .where("created_at", "<", cutoff)
        .orderBy("created_at")
        .limit(batchSize),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
