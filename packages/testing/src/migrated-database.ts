import { connectDatabase, type Database, type Migrations, migrateToLatest } from "@gw/db";
import { createTestDatabase } from "./database.js";

export interface MigratedTestDatabase<Tables> {
  url: string;
  database: Database<Tables>;
  /** Another connection pool to the same database, standing in for another process. */
  connectAgain(): Database<Tables>;
  /** Closes every pool opened here, then drops the database. */
  drop(): Promise<void>;
}

/** A fresh database for one app's schema, migrated forward; the usual start of an app's integration test. */
export async function migratedTestDatabase<Tables>(
  schema: string,
  migrations: Migrations,
): Promise<MigratedTestDatabase<Tables>> {
  const created = await createTestDatabase({ prefix: schema });
  const database = connectDatabase<Tables>({ url: created.url, schema });
  const pools: Database<Tables>[] = [database];
  try {
    await migrateToLatest(database.db, schema, migrations);
  } catch (error) {
    await database.close();
    await created.drop();
    throw error;
  }
  return {
    url: created.url,
    database,
    connectAgain: () => {
      const other = connectDatabase<Tables>({ url: created.url, schema });
      pools.push(other);
      return other;
    },
    drop: async () => {
      await Promise.all(pools.map((pool) => pool.close()));
      await created.drop();
    },
  };
}
