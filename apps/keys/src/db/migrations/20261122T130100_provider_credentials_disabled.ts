import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// A BYOK key can be switched off without deleting it (OpenRouter's BYOK API has `disabled`).
export const providerCredentialsDisabled: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable("provider_credentials")
      .addColumn("disabled", "boolean", (column) => column.notNull().defaultTo(false))
      .execute();
  },
};
