import { randomBytes } from "node:crypto";
import { connectDatabase, type Database, migrateToLatest } from "@gw/db";
import pg from "pg";
import { migrations, SCHEMA } from "../db/index.js";
import type { BillingTables } from "../db/schema.js";

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface TestDatabase {
  url: string;
  database: Database<BillingTables>;
  /** Another connection pool to the same database, standing in for another process (the CLI). */
  connectAgain(): Database<BillingTables>;
  drop(): Promise<void>;
}

/** A fresh database per test file, migrated forward, dropped afterwards. */
export async function createBillingTestDatabase(): Promise<TestDatabase> {
  const name = `gw_t_billing_${randomBytes(6).toString("hex")}`;
  await admin(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = connectDatabase<BillingTables>({ url: url.toString(), schema: SCHEMA });
  await migrateToLatest(database.db, SCHEMA, migrations);
  const others: Database<BillingTables>[] = [];
  return {
    url: url.toString(),
    database,
    connectAgain: () => {
      const other = connectDatabase<BillingTables>({ url: url.toString(), schema: SCHEMA });
      others.push(other);
      return other;
    },
    drop: async () => {
      await Promise.all([database, ...others].map((db) => db.close()));
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
