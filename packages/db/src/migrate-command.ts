import { connectDatabase } from "./connect.js";
import { type Migrations, migrateToLatest } from "./migrate.js";

/**
 * The body of every app's `migrate` script: runs one schema's migrations forward against
 * DATABASE_URL, prints what was applied and exits non-zero on failure.
 */
export function runMigrateCommand(
  schema: string,
  migrations: Migrations,
  databaseUrl = process.env.DATABASE_URL,
): void {
  const migrate = async () => {
    if (!databaseUrl) throw new Error("DATABASE_URL is required");
    const database = connectDatabase({ url: databaseUrl, schema });
    try {
      const applied = await migrateToLatest(database.db, schema, migrations);
      console.log(applied.length > 0 ? `applied: ${applied.join(", ")}` : `${schema} schema is up to date`);
    } finally {
      await database.close();
    }
  };
  migrate().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
