import { connectDatabase, type Database, migrateToLatest } from "@gw/db";
import { createTestDatabase } from "@gw/testing";
import { migrations, SCHEMA } from "../db/index.js";
import type { BillingTables } from "../db/schema.js";

export interface TestDatabase {
  url: string;
  database: Database<BillingTables>;
  /** Another connection pool to the same database, standing in for another process (the CLI). */
  connectAgain(): Database<BillingTables>;
  drop(): Promise<void>;
}

/** A fresh database per test file on the resolved test Postgres, migrated forward, dropped afterwards. */
export async function createBillingTestDatabase(): Promise<TestDatabase> {
  const created = await createTestDatabase({ prefix: "billing" });
  const database = connectDatabase<BillingTables>({ url: created.url, schema: SCHEMA });
  await migrateToLatest(database.db, SCHEMA, migrations);
  const others: Database<BillingTables>[] = [];
  return {
    url: created.url,
    database,
    connectAgain: () => {
      const other = connectDatabase<BillingTables>({ url: created.url, schema: SCHEMA });
      others.push(other);
      return other;
    },
    drop: async () => {
      await Promise.all([database, ...others].map((db) => db.close()));
      await created.drop();
    },
  };
}
