import { runMigrateCommand } from "@gw/db";
import { migrations, SCHEMA } from "./db/index.js";

/** `pnpm --filter @gw/billing migrate`: runs the billing schema's migrations forward against DATABASE_URL. */
runMigrateCommand(SCHEMA, migrations);
