import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

/** The append-only credit ledger. Written against Kysely<unknown>: migrations never import app types. */
export const ledger: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      create table ledger_entries (
        id bigserial primary key,
        account_id text not null,
        kind text not null check (kind in ('purchase', 'grant', 'usage', 'refund')),
        amount numeric(38, 12) not null,
        event_id text unique,
        reference text unique,
        key_hash text,
        is_byok boolean not null default false,
        byok_cost numeric(38, 12) not null default 0 check (byok_cost >= 0),
        model text,
        created_at timestamptz not null default now(),
        constraint ledger_entries_sign check (
          (kind = 'usage' and amount <= 0) or (kind <> 'usage' and amount > 0)
        ),
        constraint ledger_entries_usage_event check (kind <> 'usage' or event_id is not null)
      )
    `.execute(db);
    // Balance and snapshot (sum, max id) per account, answered from the index alone.
    await sql`create index ledger_entries_account on ledger_entries (account_id, id) include (amount, kind)`.execute(
      db,
    );
    // A key's spend per UTC window.
    await sql`
      create index ledger_entries_key_window on ledger_entries (key_hash, created_at)
      include (account_id, kind, amount, byok_cost) where key_hash is not null
    `.execute(db);
    // Today's requests to `:free` variants (free-tier daily limits).
    await sql`
      create index ledger_entries_free_requests on ledger_entries (account_id, created_at)
      where kind = 'usage' and model like '%:free'
    `.execute(db);
    await sql`
      create function ledger_entries_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'ledger_entries is append-only: % is not allowed', tg_op;
      end
      $$
    `.execute(db);
    await sql`
      create trigger ledger_entries_append_only before update or delete on ledger_entries
      for each statement execute function ledger_entries_append_only()
    `.execute(db);
  },
};
