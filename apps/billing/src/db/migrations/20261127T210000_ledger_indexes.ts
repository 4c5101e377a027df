import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

/**
 * Every index of the ledger earns its place (docs/scaling.md, "Indexes and the queries that need
 * them"); a usage row now costs three index entries instead of five:
 * - the payment reference is unique over non-null values only: usage rows (all but a few) have none,
 *   and each of them used to add a NULL entry to the unique index;
 * - the primary key is (account_id, id) carrying amount and kind, the one index the per-account
 *   balance, snapshot and totals read from; no query looks a row up by id alone, so the separate
 *   index on id and the account index it duplicated are one now. Ids still come from the sequence.
 */
export const ledgerIndexes: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`create unique index ledger_entries_reference on ledger_entries (reference)
      where reference is not null`.execute(db);
    await sql`alter table ledger_entries drop constraint ledger_entries_reference_key`.execute(db);
    await sql`alter table ledger_entries drop constraint ledger_entries_pkey`.execute(db);
    await sql`alter table ledger_entries add constraint ledger_entries_pkey
      primary key (account_id, id) include (amount, kind)`.execute(db);
    await sql`drop index ledger_entries_account`.execute(db);
  },
};
