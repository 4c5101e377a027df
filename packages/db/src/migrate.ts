import { type Kysely, sql } from "kysely";
import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
import { assertSchemaName } from "./connect.js";

export type Migrations = Record<string, Migration>;

const TIMESTAMP_NAME = /^\d{8}T\d{6}_[a-z0-9_]+$/;

/**
 * Runs an app's migrations forward inside its own schema. Names are timestamped
 * (YYYYMMDDTHHMMSS_description) so their order is their creation order.
 */
export async function migrateToLatest<Tables>(
  db: Kysely<Tables>,
  schema: string,
  migrations: Migrations,
): Promise<string[]> {
  assertSchemaName(schema);
  for (const name of Object.keys(migrations)) {
    if (!TIMESTAMP_NAME.test(name)) throw new Error(`migration name is not timestamped: ${name}`);
  }
  await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const migrator = new Migrator({
    db,
    provider,
    migrationTableSchema: schema,
    migrationTableName: "kysely_migration",
    migrationLockTableName: "kysely_migration_lock",
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? [])
    .filter((result) => result.status === "Success")
    .map((result) => result.migrationName);
}

/**
 * A readiness check: the database answers and every migration this build knows is applied (an app
 * rolled out before its migration Job finished is not ready). Shaped as @gw/http's CheckResult.
 */
export function migrationsCheck<Tables>(
  db: Kysely<Tables>,
  schema: string,
  migrations: Migrations,
): () => Promise<{ ok: boolean; applied: number; pending: string[] }> {
  assertSchemaName(schema);
  const known = Object.keys(migrations);
  return async () => {
    const { rows } = await sql<{
      name: string;
    }>`select name from ${sql.id(schema, "kysely_migration")}`.execute(db);
    const applied = new Set(rows.map((row) => row.name));
    const pending = known.filter((name) => !applied.has(name));
    return { ok: pending.length === 0, applied: applied.size, pending };
  };
}
