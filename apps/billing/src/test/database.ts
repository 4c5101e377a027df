import { type MigratedTestDatabase, migratedTestDatabase } from "@gw/testing";
import { migrations, SCHEMA } from "../db/index.js";
import type { BillingTables } from "../db/schema.js";

export type TestDatabase = MigratedTestDatabase<BillingTables>;

/** A fresh database per test file on the resolved test Postgres, migrated forward, dropped afterwards. */
export function createBillingTestDatabase(): Promise<TestDatabase> {
  return migratedTestDatabase<BillingTables>(SCHEMA, migrations);
}
