import { connectDatabase, migrateToLatest } from "@gw/db";
import { loadBillingConfig } from "./config.js";
import { migrations, SCHEMA } from "./db/index.js";
import type { BillingTables } from "./db/schema.js";

/** `pnpm --filter @gw/billing migrate`: runs the billing schema's migrations forward and exits. */
async function migrate(): Promise<void> {
  const config = loadBillingConfig();
  if (!config.DATABASE_URL) throw new Error("DATABASE_URL is required");
  const database = connectDatabase<BillingTables>({ url: config.DATABASE_URL, schema: SCHEMA });
  try {
    const applied = await migrateToLatest(database.db, SCHEMA, migrations);
    console.log(applied.length > 0 ? `applied: ${applied.join(", ")}` : "billing schema is up to date");
  } finally {
    await database.close();
  }
}

migrate().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
