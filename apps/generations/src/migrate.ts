import { connectDatabase, migrateToLatest } from "@gw/db";
import { loadGenerationsConfig } from "./config.js";
import { migrations, SCHEMA } from "./db/index.js";
import type { GenerationsTables } from "./db/schema.js";

/** `pnpm --filter @gw/generations migrate`: runs the generations schema's migrations forward and exits. */
async function migrate(): Promise<void> {
  const config = loadGenerationsConfig();
  if (!config.DATABASE_URL) throw new Error("DATABASE_URL is required");
  const database = connectDatabase<GenerationsTables>({ url: config.DATABASE_URL, schema: SCHEMA });
  try {
    const applied = await migrateToLatest(database.db, SCHEMA, migrations);
    console.log(applied.length > 0 ? `applied: ${applied.join(", ")}` : "generations schema is up to date");
  } finally {
    await database.close();
  }
}

migrate().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
