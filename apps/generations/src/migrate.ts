import { runMigrateCommand } from "@gw/db";
import { migrations, SCHEMA } from "./db/index.js";

/** `pnpm --filter @gw/generations migrate`: runs the generations schema's migrations forward against DATABASE_URL. */
runMigrateCommand(SCHEMA, migrations);
