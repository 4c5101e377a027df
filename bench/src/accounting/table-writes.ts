import type pg from "pg";

/** Cumulative write counters of one table (pg_stat_user_tables) and the shape of its indexes. */
export interface TableCounters {
  inserted: number;
  updated: number;
  /** Updates that wrote no index entry (heap-only tuples). */
  hotUpdated: number;
  deleted: number;
  /** Indexes over every row: each inserted row and each non-HOT update adds one entry to each. */
  fullIndexes: number;
  /** Partial indexes, by name: the rows their predicate holds for now (an entry each). */
  partialRows: Record<string, number>;
}

export type TableReading = Record<string, TableCounters>;

/** Rows and index entries the database wrote per request between two readings, and by table. */
export interface TableWrites {
  rowsPerRequest: number;
  indexEntriesPerRequest: number;
  byTable: Record<string, { rows: number; indexEntries: number }>;
}

/**
 * Rows written = inserted + updated + deleted (each writes a heap tuple or marks one). Index entries
 * written = (inserted + non-HOT updated) × the table's full indexes (a btree indexes NULLs too, so a
 * nullable unique column costs an entry per row), plus, per partial index, the growth of the rows its
 * predicate holds for (an entry only for those; rows deleted meanwhile make it a lower bound).
 */
export function tableWrites(
  before: TableReading,
  after: TableReading,
  requests: number,
): TableWrites | undefined {
  if (requests <= 0) return undefined;
  const byTable: TableWrites["byTable"] = {};
  let rows = 0;
  let entries = 0;
  for (const [table, end] of Object.entries(after)) {
    const start = before[table] ?? {
      inserted: 0,
      updated: 0,
      hotUpdated: 0,
      deleted: 0,
      fullIndexes: 0,
      partialRows: {},
    };
    const inserted = end.inserted - start.inserted;
    const updated = end.updated - start.updated;
    const coldUpdates = updated - (end.hotUpdated - start.hotUpdated);
    const tableRows = inserted + updated + (end.deleted - start.deleted);
    const partial = Object.entries(end.partialRows).reduce(
      (sum, [index, count]) => sum + Math.max(0, count - (start.partialRows[index] ?? 0)),
      0,
    );
    const tableEntries = (inserted + coldUpdates) * end.fullIndexes + partial;
    if (tableRows === 0 && tableEntries === 0) continue;
    byTable[table] = { rows: tableRows / requests, indexEntries: tableEntries / requests };
    rows += tableRows;
    entries += tableEntries;
  }
  return { rowsPerRequest: rows / requests, indexEntriesPerRequest: entries / requests, byTable };
}

/** Reads every user table's counters and index shapes of the database `pool` is connected to. */
export async function readTables(pool: pg.Pool): Promise<TableReading> {
  const tables = await pool.query<{
    name: string;
    inserted: string;
    updated: string;
    hot: string;
    deleted: string;
  }>(
    `select schemaname || '.' || relname as name, n_tup_ins as inserted, n_tup_upd as updated,
            n_tup_hot_upd as hot, n_tup_del as deleted
       from pg_stat_user_tables`,
  );
  const indexes = await pool.query<{ table_name: string; index_name: string; predicate: string | null }>(
    `select n.nspname || '.' || t.relname as table_name, n.nspname || '.' || i.relname as index_name,
            pg_get_expr(x.indpred, x.indrelid) as predicate
       from pg_index x
       join pg_class t on t.oid = x.indrelid
       join pg_class i on i.oid = x.indexrelid
       join pg_namespace n on n.oid = t.relnamespace
      where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')`,
  );
  const reading: TableReading = {};
  for (const row of tables.rows) {
    reading[row.name] = {
      inserted: Number(row.inserted),
      updated: Number(row.updated),
      hotUpdated: Number(row.hot),
      deleted: Number(row.deleted),
      fullIndexes: 0,
      partialRows: {},
    };
  }
  for (const index of indexes.rows) {
    const table = reading[index.table_name];
    if (!table) continue;
    if (!index.predicate) {
      table.fullIndexes++;
      continue;
    }
    // The names come from the catalog, quoted; the predicate is the catalog's own expression text.
    const [schema, name] = index.table_name.split(".");
    const { rows } = await pool.query<{ n: string }>(
      `select count(*) as n from "${schema}"."${name}" where ${index.predicate}`,
    );
    table.partialRows[index.index_name] = Number(rows[0]?.n ?? 0);
  }
  return reading;
}
