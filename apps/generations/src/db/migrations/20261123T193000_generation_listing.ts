import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// Migrations never import app types: they describe the schema as it was on the day they were written.
export const generationListing: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // GET /api/v1/generations: an account's newest rows first, resumed after a (created_at, id) position.
    // The trailing id makes the order total, so the keyset comparison is an index range scan.
    await db.schema
      .createIndex("generations_account_listing_idx")
      .on("generations")
      .expression(sql`account_id, created_at desc, id desc`)
      .execute();
    // The same for one API key (the console's per-key view), so a rarely used key of a busy account
    // does not scan the whole account's history.
    await db.schema
      .createIndex("generations_account_key_listing_idx")
      .on("generations")
      .expression(sql`account_id, key_hash, created_at desc, id desc`)
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex("generations_account_key_listing_idx").execute();
    await db.schema.dropIndex("generations_account_listing_idx").execute();
  },
};
