import { type Kysely, sql } from "kysely";
import type { BillingTables } from "../db/schema.js";

/**
 * One line of an account's transactions: a credit (purchase or grant) as its own line, and the usage
 * of one UTC day (its debits net of refunds) as one line, since an account makes thousands of requests
 * a day and each has its generation record already.
 */
export interface TransactionRow {
  /** `purchase`, `grant`, or `usage` (a UTC day's requests). */
  kind: string;
  /** Signed USD (credits positive, usage negative), numeric text as PostgreSQL renders it. */
  amount: string;
  /** A credit's reference (payment id, ticket); null for usage. */
  reference: string | null;
  /** Ledger entries in the line: 1 for a credit, the day's usage and refund entries for usage. */
  entries: number;
  /** A credit's time, or the day's start for usage; ISO 8601 UTC with microseconds (the cursor's key). */
  at: string;
  /** A credit's entry id; "0" for usage (unique with `at`: one usage line per day). */
  id: string;
}

export interface TransactionPosition {
  at: string;
  id: string;
}

/**
 * The account's transactions, newest first, after a keyset position. Reads the account's rows through
 * the ledger's primary key (account_id, id), as the account's totals do.
 */
export async function listTransactions(
  db: Kysely<BillingTables>,
  accountId: string,
  options: { after: TransactionPosition | undefined; limit: number },
): Promise<TransactionRow[]> {
  const instant = sql`to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  const after = options.after
    ? sql`where (at, id) < (${options.after.at}::timestamptz, ${options.after.id}::int8)`
    : sql``;
  const result = await sql<TransactionRow>`
    with lines as (
      select kind::text, amount, reference, 1 as entries, created_at as at, id
        from ledger_entries
        where account_id = ${accountId} and kind in ('purchase', 'grant')
      union all
      select 'usage', sum(amount), null, count(*)::int4,
             date_trunc('day', created_at at time zone 'UTC') at time zone 'UTC', 0::int8
        from ledger_entries
        where account_id = ${accountId} and kind in ('usage', 'refund')
        group by date_trunc('day', created_at at time zone 'UTC')
    )
    select kind, amount::text as amount, reference, entries, ${instant} as at, id::text as id
      from lines ${after}
      order by lines.at desc, lines.id desc
      limit ${options.limit}`.execute(db);
  return result.rows;
}
