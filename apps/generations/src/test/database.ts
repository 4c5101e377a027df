import { randomBytes } from "node:crypto";
import { connectDatabase, type Database, type Migrations, migrateToLatest } from "@gw/db";
import { sql } from "kysely";

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface TestDatabase<Tables> {
  database: Database<Tables>;
  drop(): Promise<void>;
}

/** A fresh database per test file, migrated to latest, dropped afterwards. */
export async function migratedTestDatabase<Tables>(
  schema: string,
  migrations: Migrations,
): Promise<TestDatabase<Tables>> {
  const name = `gw_t_${randomBytes(6).toString("hex")}`;
  const admin = connectDatabase<unknown>({ url: ADMIN_URL, schema: "public", maxConnections: 1 });
  await sql`create database ${sql.id(name)}`.execute(admin.db);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const database = connectDatabase<Tables>({ url: url.toString(), schema });
  await migrateToLatest(database.db, schema, migrations);
  return {
    database,
    drop: async () => {
      await database.close();
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin.db);
      await admin.close();
    },
  };
}
