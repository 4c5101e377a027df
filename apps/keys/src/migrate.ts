import { runMigrateCommand } from "@gw/db";
import { migrations, SCHEMA } from "./db/index.js";

/** `pnpm --filter @gw/keys migrate`: runs the keys schema's migrations forward against DATABASE_URL. */
runMigrateCommand(SCHEMA, migrations);
