import { usdToPico } from "@gw/money";
import { type Kysely, sql } from "kysely";
import type { BillingTables } from "../db/schema.js";
import type { UsageWindows } from "../time/windows.js";

export interface LedgerSnapshot {
  balancePico: bigint;
  /** The highest entry id of the account (0 when it has none). */
  seq: bigint;
  /** Purchases only: the free-tier daily limit rises once they reach 5 USD. */
  purchasedPico: bigint;
}

/** Balance, purchases and max id in one statement, hence one snapshot: what the hot view loads. */
export async function ledgerSnapshot(db: Kysely<BillingTables>, accountId: string): Promise<LedgerSnapshot> {
  const row = await db
    .selectFrom("ledger_entries")
    .select([
      sql<string>`coalesce(sum(amount), 0)::text`.as("balance"),
      sql<string>`coalesce(sum(amount) filter (where kind = 'purchase'), 0)::text`.as("purchased"),
      sql<bigint>`coalesce(max(id), 0)::int8`.as("seq"),
    ])
    .where("account_id", "=", accountId)
    .executeTakeFirstOrThrow();
  return { balancePico: usdToPico(row.balance), seq: row.seq, purchasedPico: usdToPico(row.purchased) };
}

export interface KeyWindowSpend {
  /** Usage debits net of refunds of the key since the window start, entries with id ≤ seq. */
  spentPico: bigint;
  /** The account's highest entry id in the same snapshot. */
  seq: bigint;
}

/**
 * A key's spend since `since` (plus its BYOK upstream costs when they count towards its limit) and the
 * account's max id, read in one statement (one snapshot).
 */
export async function keyWindowSpend(
  db: Kysely<BillingTables>,
  accountId: string,
  keyHash: string,
  since: Date,
  includeByok = false,
): Promise<KeyWindowSpend> {
  const ofKey = sql`key_hash = ${keyHash} and kind in ('usage', 'refund') and created_at >= ${since}`;
  const spent = includeByok ? sql`byok_cost - amount` : sql`-amount`;
  const row = await db
    .selectFrom("ledger_entries")
    .select([
      sql<string>`coalesce(sum(${spent}) filter (where ${ofKey}), 0)::text`.as("spent"),
      sql<bigint>`coalesce(max(id), 0)::int8`.as("seq"),
    ])
    .where("account_id", "=", accountId)
    .executeTakeFirstOrThrow();
  return { spentPico: usdToPico(row.spent), seq: row.seq };
}

export interface AccountTotals {
  /** Purchases and grants. */
  creditsPico: bigint;
  /** Usage debits net of refunds, as a positive number. */
  usagePico: bigint;
  /** Purchases only: the free-tier daily limit rises once they reach 5 USD. */
  purchasedPico: bigint;
  /** No purchase yet (grants do not count). */
  isFreeTier: boolean;
}

export async function accountTotals(db: Kysely<BillingTables>, accountId: string): Promise<AccountTotals> {
  const row = await db
    .selectFrom("ledger_entries")
    .select([
      sql<string>`coalesce(sum(amount) filter (where kind in ('purchase', 'grant')), 0)::text`.as("credits"),
      sql<string>`coalesce(-sum(amount) filter (where kind in ('usage', 'refund')), 0)::text`.as("usage"),
      sql<boolean>`coalesce(bool_or(kind = 'purchase'), false)`.as("purchased"),
      sql<string>`coalesce(sum(amount) filter (where kind = 'purchase'), 0)::text`.as("purchased_amount"),
    ])
    .where("account_id", "=", accountId)
    .executeTakeFirstOrThrow();
  return {
    creditsPico: usdToPico(row.credits),
    usagePico: usdToPico(row.usage),
    purchasedPico: usdToPico(row.purchased_amount),
    isFreeTier: !row.purchased,
  };
}

export interface KeySpend {
  usage: bigint;
  daily: bigint;
  weekly: bigint;
  monthly: bigint;
  byok: bigint;
  byokDaily: bigint;
  byokWeekly: bigint;
  byokMonthly: bigint;
}

/**
 * A key's spend per UTC window: `usage*` is credits spent (debits net of refunds), `byok*` the
 * upstream cost of requests served on the account's own provider credentials.
 */
export async function keySpend(
  db: Kysely<BillingTables>,
  accountId: string,
  keyHash: string,
  windows: UsageWindows,
): Promise<KeySpend> {
  const spent = (since?: Date) =>
    since
      ? sql<string>`coalesce(-sum(amount) filter (where created_at >= ${since}), 0)::text`
      : sql<string>`coalesce(-sum(amount), 0)::text`;
  const byok = (since?: Date) =>
    since
      ? sql<string>`coalesce(sum(byok_cost) filter (where created_at >= ${since}), 0)::text`
      : sql<string>`coalesce(sum(byok_cost), 0)::text`;
  const row = await db
    .selectFrom("ledger_entries")
    .select([
      spent().as("usage"),
      spent(windows.day).as("daily"),
      spent(windows.week).as("weekly"),
      spent(windows.month).as("monthly"),
      byok().as("byok"),
      byok(windows.day).as("byokDaily"),
      byok(windows.week).as("byokWeekly"),
      byok(windows.month).as("byokMonthly"),
    ])
    .where("key_hash", "=", keyHash)
    .where("account_id", "=", accountId)
    .where("kind", "in", ["usage", "refund"])
    .executeTakeFirstOrThrow();
  return {
    usage: usdToPico(row.usage),
    daily: usdToPico(row.daily),
    weekly: usdToPico(row.weekly),
    monthly: usdToPico(row.monthly),
    byok: usdToPico(row.byok),
    byokDaily: usdToPico(row.byokDaily),
    byokWeekly: usdToPico(row.byokWeekly),
    byokMonthly: usdToPico(row.byokMonthly),
  };
}

/** Requests to `:free` model variants since `since` (the free-tier daily count). */
export async function freeRequestsSince(
  db: Kysely<BillingTables>,
  accountId: string,
  since: Date,
): Promise<number> {
  const row = await db
    .selectFrom("ledger_entries")
    .select(sql<string>`count(*)::text`.as("count"))
    .where("account_id", "=", accountId)
    // Literal predicates, so the planner can use the matching partial index.
    .where(sql<boolean>`kind = 'usage' and model like '%:free'`)
    .where("created_at", ">=", since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Requests to `:free` models since the start of each window, in one statement. */
export async function freeRequestCounts(
  db: Kysely<BillingTables>,
  accountId: string,
  since: { minute: Date; day: Date },
): Promise<{ minute: number; day: number }> {
  const row = await db
    .selectFrom("ledger_entries")
    .select([
      sql<string>`count(*) filter (where created_at >= ${since.minute})::text`.as("minute"),
      sql<string>`count(*)::text`.as("day"),
    ])
    .where("account_id", "=", accountId)
    // Literal predicates, so the planner can use the matching partial index.
    .where(sql<boolean>`kind = 'usage' and model like '%:free'`)
    .where("created_at", ">=", since.day)
    .executeTakeFirstOrThrow();
  return { minute: Number(row.minute), day: Number(row.day) };
}
