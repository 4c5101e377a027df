import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { PreparingPool } from "./prepared.js";

// numeric stays a string (exact money); int8 becomes bigint so counts and pico-dollars stay exact.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => BigInt(value));

export interface DbOptions {
  url: string;
  /** The Postgres schema the owning app keeps its tables in; it is first on the search_path. */
  schema: string;
  maxConnections?: number;
  applicationName?: string;
}

export interface Database<Tables> {
  db: Kysely<Tables>;
  pool: pg.Pool;
  schema: string;
  close(): Promise<void>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

export function assertSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  return schema;
}

/** Each control-plane app owns one schema; its connections see only that schema by default. */
export function connectDatabase<Tables>(options: DbOptions): Database<Tables> {
  const schema = assertSchemaName(options.schema);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    application_name: options.applicationName ?? schema,
    options: `-c search_path=${schema},public`,
  });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  // A client that is checked out (a query or transaction under way) has no pool listener: pg-pool
  // removes it on checkout. When the server goes away then (a crash, a restart), pg emits 'error' on
  // that client, and without a listener the process exits. The query under way is rejected with the
  // same error, and the pool discards the broken client on its release, so this listener only keeps
  // the process alive (issue 33: billing exited when PostgreSQL was killed under traffic).
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  // Statements marked with preparedAs run as named statements (prepared.ts); the rest as before.
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: new PreparingPool(pool) }) });
  return {
    db,
    pool,
    schema,
    close: () => db.destroy(),
  };
}
