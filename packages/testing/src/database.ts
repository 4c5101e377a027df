import pg from "pg";
import { serviceUrl } from "./helpers.js";
import { uniqueName } from "./names.js";

export interface TestDatabase {
  /** Connection URL of the new database. */
  url: string;
  name: string;
  /** Drops the database, closing whatever connections are still open to it. */
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Part of the database name, to tell tests apart in `\l`. */
  prefix?: string;
  /** The server to create it on; default the Postgres the global setup resolved. */
  serverUrl?: string;
}

/** A fresh, uniquely named database on the test server, so tests and concurrent runs never share. */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = options.serverUrl ?? serviceUrl("postgres");
  // Postgres identifiers stop at 63 bytes; the unique suffix is kept whole.
  const name = uniqueName(`gw_${options.prefix ?? "test"}`.slice(0, 40), "_");
  await withClient(serverUrl, (client) => client.query(`create database "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await withClient(serverUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
