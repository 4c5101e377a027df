import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

// Migrations never import app types: they describe the schema as it was on the day they were written.
export const retentionById: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // Generation ids start with their creation time in fixed-width base36 (`gen-<9 chars>…`), so the
    // primary key is already in time order: the retention sweep walks it below the cutoff's id floor
    // and the created_at index, an entry on every request for one hourly sweep, goes (issue 27). The
    // id's ordering must be byte-wise whatever the database's default collation is, hence "C".
    await sql`alter table generations alter column id type text collate "C"`.execute(db);
    await db.schema.dropIndex("generations_created_at_idx").ifExists().execute();
  },
};
