import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// BYOK_MASTER_KEY rotation (issue 33): each sealed provider key names the master key that sealed it, so
// the current and the previous key can both open rows while the re-seal pass moves them. Rows sealed
// before this have none (null): the cipher tries each held key on them and the pass gives them one.
export const providerCredentialsKeyId: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable("provider_credentials").addColumn("key_id", "text").execute();
  },
};
