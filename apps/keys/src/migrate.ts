import { connectDatabase, migrateToLatest } from "@gw/db";
import { loadKeysConfig } from "./config.js";
import { migrations, SCHEMA } from "./db/index.js";
import type { KeysTables } from "./db/schema.js";

/** `pnpm --filter @gw/keys migrate`: runs the keys schema's migrations forward and exits. */
async function migrate(): Promise<void> {
  const config = loadKeysConfig();
  if (!config.DATABASE_URL) throw new Error("DATABASE_URL is required");
  const database = connectDatabase<KeysTables>({ url: config.DATABASE_URL, schema: SCHEMA });
  try {
    const applied = await migrateToLatest(database.db, SCHEMA, migrations);
    console.log(applied.length > 0 ? `applied: ${applied.join(", ")}` : "keys schema is up to date");
  } finally {
    await database.close();
  }
}

migrate().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
