import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Migrations never import app types: they describe the schema as it was on the day they were written.
export const callerAndError: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // Who called (OpenRouter's `external_user`, the request's `user`; its `user_agent`) and, for a failed
    // generation, the error the client was answered with. Null in rows recorded before the usage event
    // carried them, and where the request sent none or did not fail.
    await db.schema
      .alterTable("generations")
      .addColumn("external_user", "text")
      .addColumn("user_agent", "text")
      .addColumn("error_status", "integer")
      .addColumn("error_reason", "text")
      .addColumn("error_message", "text")
      .execute();
  },
};
