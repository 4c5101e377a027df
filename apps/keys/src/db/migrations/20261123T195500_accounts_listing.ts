import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// Migrations never import app types: they describe the schema as it was on the day they were written.
export const accountsListing: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // GET /api/v1/admin/accounts: newest first, resumed after a (created_at, id) position.
    await db.schema
      .createIndex("accounts_listing_idx")
      .on("accounts")
      .expression(sql`created_at desc, id desc`)
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex("accounts_listing_idx").execute();
  },
};
