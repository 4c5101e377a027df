import pg from "pg";
import { readTables, type TableReading } from "./table-writes.js";

/** Cumulative write counters of one PostgreSQL database (and the server's WAL position). */
export type DatabaseCounters = Record<(typeof COUNTERS)[number], number>;

const COUNTERS = [
  "commits",
  "rowsInserted",
  "rowsUpdated",
  "rowsDeleted",
  "blocksRead",
  /** The server's WAL position in bytes: cluster-wide, so other databases' writes count too. */
  "walBytes",
] as const;

/**
 * Reads pg_stat_database for the bench's own database (a fresh one per run, so the rows are the run's)
 * and pg_current_wal_lsn(). PostgreSQL flushes a backend's statistics at most once a second, so the
 * counters of a scenario can lag it by that much.
 */
export interface DatabaseProbe {
  read(): Promise<DatabaseCounters>;
  /** Per table: rows and index entries written (pg_stat_user_tables and the catalog's indexes). */
  tables(): Promise<TableReading>;
  /** One query on the database (the freshness probe's lookups); counted by the caller. */
  query<R extends Record<string, unknown>>(text: string, values: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

export function databaseCounters(url: string): DatabaseProbe {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on("error", () => {});
  return {
    read: async () => {
      const { rows } = await pool.query<Record<string, string>>(
        `select xact_commit as commits, tup_inserted as "rowsInserted", tup_updated as "rowsUpdated",
                tup_deleted as "rowsDeleted", blks_read as "blocksRead",
                pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') as "walBytes"
           from pg_stat_database where datname = current_database()`,
      );
      const row = rows[0] ?? {};
      return Object.fromEntries(COUNTERS.map((name) => [name, Number(row[name] ?? 0)])) as DatabaseCounters;
    },
    tables: () => readTables(pool),
    query: async <R extends Record<string, unknown>>(text: string, values: unknown[]) =>
      (await pool.query<R>(text, values)).rows,
    close: () => pool.end(),
  };
}

/** What one request cost the database, on average, between two readings. */
export function perRequest(
  before: DatabaseCounters,
  after: DatabaseCounters,
  requests: number,
): DatabaseCounters | undefined {
  if (requests <= 0) return undefined;
  return Object.fromEntries(
    COUNTERS.map((name) => [name, (after[name] - before[name]) / requests]),
  ) as DatabaseCounters;
}
