import { type Kysely, sql } from "kysely";
import type { BillingTables } from "../db/schema.js";

export interface WriteCost {
  /** Heap rows inserted into ledger_entries (pg_stat_user_tables.n_tup_ins). */
  rows: number;
  /** Index entries those rows added, per index of ledger_entries. */
  entries: Record<string, number>;
}

/** The ledger's insert count as PostgreSQL's statistics report it (after the writer flushed them). */
export async function insertedRows(db: Kysely<BillingTables>): Promise<number> {
  const { rows } = await sql<{ inserted: string }>`
    select n_tup_ins::text as inserted from pg_stat_user_tables
    where relname = 'ledger_entries' and schemaname = current_schema()`.execute(db);
  return Number(rows[0]?.inserted ?? 0);
}

/**
 * The index entries the ledger rows of `accountIds` take, per index. A B-tree keeps one entry per
 * heap row its predicate admits (NULL keys included), so each index's count is the number of those
 * rows its predicate (`pg_index.indpred`) lets in; pg_stat_user_indexes counts scans, not insertions.
 */
export async function indexEntries(
  db: Kysely<BillingTables>,
  accountIds: readonly string[],
): Promise<Record<string, number>> {
  const { rows: indexes } = await sql<{ name: string; predicate: string | null }>`
    select index.relname as name, pg_get_expr(pg_index.indpred, pg_index.indrelid) as predicate
    from pg_index
    join pg_class as index on index.oid = pg_index.indexrelid
    join pg_class as owner on owner.oid = pg_index.indrelid
    where owner.relname = 'ledger_entries' and owner.relnamespace = current_schema()::regnamespace
    order by 1`.execute(db);
  const entries: Record<string, number> = {};
  for (const { name, predicate } of indexes) {
    const { rows } = await sql<{ count: string }>`
      select count(*)::text as count from ledger_entries
      where account_id = any(${[...accountIds]}::text[]) and (${sql.raw(predicate ?? "true")})`.execute(db);
    entries[name] = Number(rows[0]?.count ?? 0);
  }
  return entries;
}
