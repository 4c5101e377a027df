import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// Bounded account creation (issue 33): counters of new accounts per client address and overall in
// fixed windows, shared by every replica; and when a wallet last signed in or paid, which the sweep of
// never-used accounts reads so that it never removes a wallet that is in use.
export const accountLifecycle: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable("account_creation_windows")
      .addColumn("scope", "text", (column) => column.notNull().check(sql`scope in ('address', 'global')`))
      .addColumn("subject", "text", (column) => column.notNull())
      .addColumn("window_start", "timestamptz", (column) => column.notNull())
      .addColumn("created", "integer", (column) => column.notNull().check(sql`created >= 0`))
      .addPrimaryKeyConstraint("account_creation_windows_pkey", ["scope", "subject", "window_start"])
      .execute();
    await db.schema
      .createIndex("account_creation_windows_start_idx")
      .on("account_creation_windows")
      .column("window_start")
      .execute();
    // Existing wallets count as seen when the migration runs: none is swept before a full idle period.
    await db.schema
      .alterTable("wallet_accounts")
      .addColumn("last_seen_at", "timestamptz", (column) => column.notNull().defaultTo(sql`now()`))
      .execute();
  },
};
