import { connectDatabase, type Database, type Migrations, migrateToLatest } from "@gw/db";
import { createTestDatabase } from "@gw/testing";

export interface TestDatabase<Tables> {
  database: Database<Tables>;
  drop(): Promise<void>;
}

/** A fresh database per test file on the resolved test Postgres, migrated forward, dropped afterwards. */
export async function migratedTestDatabase<Tables>(
  schema: string,
  migrations: Migrations,
): Promise<TestDatabase<Tables>> {
  const created = await createTestDatabase({ prefix: schema });
  const database = connectDatabase<Tables>({ url: created.url, schema });
  await migrateToLatest(database.db, schema, migrations);
  return {
    database,
    drop: async () => {
      await database.close();
      await created.drop();
    },
  };
}
