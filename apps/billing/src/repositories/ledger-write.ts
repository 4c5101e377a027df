import { preparedAs } from "@gw/db";
import { picoToDecimalString, usdToPico } from "@gw/money";
import { type Insertable, type Kysely, sql, type Transaction } from "kysely";
import type { BillingTables, CreditKind, LedgerEntriesTable } from "../db/schema.js";

export interface UsageEntryInput {
  accountId: string;
  eventId: string;
  keyHash: string;
  model: string;
  isByok: boolean;
  /** The credit charge, ≥ 0; recorded as a negative amount. */
  costPico: bigint;
  byokCostPico: bigint;
  createdAt: Date;
}

export interface CreditEntryInput {
  accountId: string;
  kind: CreditKind;
  amountPico: bigint;
  reference: string | null;
}

export interface WrittenEntry {
  id: bigint;
  /** False when the idempotency key (event id / reference) was already in the ledger. */
  inserted: boolean;
}

/**
 * Ledger writes of one account are serialised by a transaction-scoped advisory lock. Ids come from a
 * sequence when the row is inserted, so under the lock an account's ids are handed out in commit
 * order: a snapshot's max(id) covers every row of the account with a smaller id. The hot view's
 * reload-vs-apply reasoning (entry id ≤ snapshot seq ⇒ already counted) depends on this.
 */
async function lockAccount(trx: Transaction<BillingTables>, accountId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`billing.ledger:${accountId}`}, 0))`.execute(trx);
}

/** Inserts a usage debit unless the event is already in the ledger; either way returns its id. */
export async function insertUsageEntry(
  trx: Transaction<BillingTables>,
  input: UsageEntryInput,
): Promise<WrittenEntry> {
  await lockAccount(trx, input.accountId);
  const inserted = await trx
    .insertInto("ledger_entries")
    .values(usageRow(input))
    .onConflict((conflict) => conflict.column("event_id").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, inserted: true };
  const existing = await trx
    .selectFrom("ledger_entries")
    .select("id")
    .where("event_id", "=", input.eventId)
    .executeTakeFirstOrThrow();
  return { id: existing.id, inserted: false };
}

/**
 * A batch of usage debits, idempotent per event id like insertUsageEntry. Returns every event's entry by
 * event id: new rows, and rows an earlier delivery already wrote (the hot view must still see those,
 * with their id). A repeated event id in the batch is written once, as its first copy. Whatever the
 * batch's size it is two statements, each of one fixed text prepared once per connection (arrays as
 * parameters): the accounts' locks, then the insert that also returns the rows already there. A third
 * runs only when a concurrent writer committed one of the events after the insert's snapshot.
 */
export async function insertUsageEntries(
  trx: Transaction<BillingTables>,
  inputs: readonly UsageEntryInput[],
): Promise<Map<string, WrittenEntry>> {
  const unique = firstOfEachEvent(inputs);
  const written = new Map<string, WrittenEntry>();
  if (unique.length === 0) return written;
  await lockAccounts(
    trx,
    unique.map((input) => input.accountId),
  );
  const rowsWritten = await insertUsageRows(trx, unique);
  for (const row of rowsWritten) written.set(row.event_id, { id: row.id, inserted: row.inserted });
  const missing = unique.map((input) => input.eventId).filter((eventId) => !written.has(eventId));
  if (missing.length === 0) return written;
  const { rows } = await sql<{ id: bigint; event_id: string }>`${preparedAs("billing_usage_committed_since")}
    select id, event_id from ledger_entries where event_id = any(${missing}::text[])`.execute(trx);
  for (const row of rows) written.set(row.event_id, { id: row.id, inserted: false });
  return written;
}

/**
 * Every account of a batch locked in one statement, in one global order (sorted), so two batches
 * sharing accounts wait for each other instead of deadlocking.
 */
async function lockAccounts(trx: Transaction<BillingTables>, accountIds: readonly string[]): Promise<void> {
  const keys = [...new Set(accountIds)].map((accountId) => `billing.ledger:${accountId}`);
  await sql`${preparedAs("billing_lock_accounts")}select pg_advisory_xact_lock(hashtextextended(lock_key, 0))
    from (select unnest(${keys}::text[]) as lock_key order by 1) as ordered`.execute(trx);
}

interface UsageRowWritten {
  id: bigint;
  event_id: string;
  inserted: boolean;
}

/**
 * The rows arrive as one array per column and are inserted in batch order (ids follow it). Every
 * part of a statement sees the snapshot taken at its start, so the second half of the union reads
 * the rows that were there before the insert: the events an earlier delivery wrote.
 */
async function insertUsageRows(
  trx: Transaction<BillingTables>,
  inputs: readonly UsageEntryInput[],
): Promise<UsageRowWritten[]> {
  const column = <T>(value: (input: UsageEntryInput) => T): T[] => inputs.map(value);
  const { rows } = await sql<UsageRowWritten>`${preparedAs("billing_insert_usage")}with batch as (
      select * from unnest(
        ${column((input) => input.accountId)}::text[], ${column((input) => picoToDecimalString(-input.costPico))}::numeric[],
        ${column((input) => input.eventId)}::text[], ${column((input) => input.keyHash || null)}::text[],
        ${column((input) => input.isByok)}::boolean[], ${column((input) => picoToDecimalString(input.byokCostPico))}::numeric[],
        ${column((input) => input.model || null)}::text[], ${column((input) => input.createdAt)}::timestamptz[]
      ) with ordinality as item (account_id, amount, event_id, key_hash, is_byok, byok_cost, model, created_at, position)
    ), inserted as (
      insert into ledger_entries (account_id, kind, amount, event_id, key_hash, is_byok, byok_cost, model, created_at)
      select account_id, 'usage', amount, event_id, key_hash, is_byok, byok_cost, model, created_at
      from batch order by position
      on conflict (event_id) do nothing
      returning id, event_id
    )
    select id, event_id, true as inserted from inserted
    union all
    select entry.id, entry.event_id, false from ledger_entries as entry join batch using (event_id)`.execute(
    trx,
  );
  return rows;
}

function firstOfEachEvent(inputs: readonly UsageEntryInput[]): UsageEntryInput[] {
  const seen = new Set<string>();
  return inputs.filter((input) => {
    if (seen.has(input.eventId)) return false;
    seen.add(input.eventId);
    return true;
  });
}

function usageRow(input: UsageEntryInput): Insertable<LedgerEntriesTable> {
  return {
    account_id: input.accountId,
    kind: "usage",
    amount: picoToDecimalString(-input.costPico),
    event_id: input.eventId,
    key_hash: input.keyHash || null,
    is_byok: input.isByok,
    byok_cost: picoToDecimalString(input.byokCostPico),
    model: input.model || null,
    created_at: input.createdAt,
  };
}

/** The outcome of a credit write; a replayed reference reports the row it already wrote. */
export type CreditWrite =
  | { id: bigint; inserted: true }
  | { id: bigint; inserted: false; accountId: string; kind: string; amountPico: bigint };

/** Inserts a credit unless its reference is already in the ledger, in which case returns that row. */
export async function insertCreditEntry(
  trx: Transaction<BillingTables>,
  input: CreditEntryInput,
): Promise<CreditWrite> {
  await lockAccount(trx, input.accountId);
  const inserted = await trx
    .insertInto("ledger_entries")
    .values({
      account_id: input.accountId,
      kind: input.kind,
      amount: picoToDecimalString(input.amountPico),
      reference: input.reference,
    })
    // The arbiter is the partial unique index over non-null references (the predicate names it).
    .onConflict((conflict) => conflict.column("reference").where("reference", "is not", null).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, inserted: true };
  const existing = await trx
    .selectFrom("ledger_entries")
    .select(["id", "account_id", "kind", "amount"])
    .where("reference", "=", input.reference)
    .executeTakeFirstOrThrow();
  return {
    id: existing.id,
    inserted: false,
    accountId: existing.account_id,
    kind: existing.kind,
    amountPico: usdToPico(existing.amount),
  };
}

export function inTransaction<T>(
  db: Kysely<BillingTables>,
  work: (trx: Transaction<BillingTables>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(work);
}
