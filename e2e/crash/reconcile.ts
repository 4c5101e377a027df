import { createHash } from "node:crypto";
import type { Database } from "@gw/db";
import { picoToUsdNumber } from "@gw/money";
import type { Outcome } from "./traffic.js";

type Pool = Database<unknown>["pool"];

/** What the databases hold after the drain, compared with what the clients saw. */
export interface Reconciliation {
  requests: number;
  answered: number;
  cut: number;
  refused: number;
  generations: number;
  debits: number;
  /** Answered requests without a generation record or without a ledger debit (must be 0). */
  lost: string[];
  /**
   * Ids with more than one generation record or ledger debit (must be 0), counted from every row
   * (countById), not left to the tables' unique keys: a consumer applying an event twice with its
   * key removed shows here.
   */
  duplicates: string[];
  /** Ids with a generation record but no debit, or the other way round (must be 0). */
  half: string[];
  /** Debits whose amount is not the generation's cost (must be 0). */
  mispriced: number;
  /** Key hashes in the ledger that belong to none of the suite's keys (must be 0). */
  strangers: string[];
  /** Per key: what the gateway reports as its usage and the sum of its ledger debits. */
  keys: { usage: number; ledger: number }[];
}

export const sha256 = (secret: string): string => createHash("sha256").update(secret).digest("hex");

/** Reads generations and billing's ledger and checks them against the outcomes, key by key. */
export async function reconcile(
  pool: Pool,
  outcomes: readonly Outcome[],
  secrets: readonly string[],
  keyUsage: (secret: string) => Promise<number>,
): Promise<Reconciliation> {
  const generations = await countById(pool, "select id from generations.generations");
  const debits = await countById(
    pool,
    "select event_id as id from billing.ledger_entries where kind = 'usage'",
  );
  const answered = outcomes.filter((outcome) => outcome.state === "answered");
  const lost = answered
    .map((outcome) => outcome.id ?? "(answered without an id)")
    .filter((id) => !generations.has(id) || !debits.has(id));
  const duplicates = [...generations, ...debits].filter(([, count]) => count > 1).map(([id]) => id);
  const half = [
    ...[...generations.keys()].filter((id) => !debits.has(id)),
    ...[...debits.keys()].filter((id) => !generations.has(id)),
  ];
  const mispriced = await pool.query<{ count: string }>(
    `select count(*)::text as count from generations.generations g
       join billing.ledger_entries l on l.event_id = g.id and l.kind = 'usage'
      where l.amount <> -g.cost`,
  );
  const byKey = await pool.query<{ key_hash: string; pico: string }>(
    `select key_hash, (-sum(amount) * 1000000000000)::numeric(40,0)::text as pico
       from billing.ledger_entries where kind = 'usage' group by key_hash`,
  );
  const ledgerPico = new Map(byKey.rows.map((row) => [row.key_hash, BigInt(row.pico)]));
  const hashes = new Set(secrets.map(sha256));
  const keys = [];
  for (const secret of secrets)
    keys.push({
      usage: await keyUsage(secret),
      ledger: picoToUsdNumber(ledgerPico.get(sha256(secret)) ?? 0n),
    });
  return {
    requests: outcomes.length,
    answered: answered.length,
    cut: outcomes.filter((outcome) => outcome.state === "cut").length,
    refused: outcomes.filter((outcome) => outcome.state === "refused").length,
    generations: generations.size,
    debits: debits.size,
    lost,
    duplicates,
    half,
    mispriced: Number(mispriced.rows[0]?.count ?? 0),
    strangers: [...ledgerPico.keys()].filter((hash) => !hashes.has(hash)),
    keys,
  };
}

async function countById(pool: Pool, query: string): Promise<Map<string, number>> {
  const rows = await pool.query<{ id: string }>(query);
  const counts = new Map<string, number>();
  for (const row of rows.rows) counts.set(row.id, (counts.get(row.id) ?? 0) + 1);
  return counts;
}

/** GET /v1/key with the key itself: the usage the gateway reports for it (USD). */
export async function reportedUsage(baseUrl: string, secret: string): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/key`, { headers: { authorization: `Bearer ${secret}` } });
  const body = (await response.json()) as { data: { usage: number } };
  return body.data.usage;
}

/**
 * Waits (at most `timeoutMs`) until every answered request has its generation record and ledger debit
 * and the counts have stopped moving for 3 s; returns without throwing either way: the reconciliation
 * after it names what is missing.
 */
export async function settle(pool: Pool, outcomes: readonly Outcome[], timeoutMs = 60_000): Promise<void> {
  const answered = outcomes.filter((outcome) => outcome.state === "answered").map((outcome) => outcome.id);
  const deadline = Date.now() + timeoutMs;
  let last = "";
  let stableSince = Date.now();
  while (Date.now() < deadline) {
    const counts = await pool.query<{ generations: string; debits: string; missing: string }>(
      `select (select count(*) from generations.generations)::text as generations,
              (select count(*) from billing.ledger_entries where kind = 'usage')::text as debits,
              (select count(*) from unnest($1::text[]) as a(id)
                where not exists (select 1 from generations.generations g where g.id = a.id)
                   or not exists (select 1 from billing.ledger_entries l where l.event_id = a.id))::text as missing`,
      [answered],
    );
    const row = counts.rows[0];
    const now = JSON.stringify(row);
    if (now !== last) {
      last = now;
      stableSince = Date.now();
    } else if (row?.missing === "0" && Date.now() - stableSince >= 3_000) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
