import { picoToDecimalString, usdToPico } from "@gw/money";
import { type Insertable, type Kysely, type Selectable, sql, type Transaction } from "kysely";
import type { ActivityDailyTable, GenerationsTable, GenerationsTables } from "../db/schema.js";

/**
 * Stores a batch of generations and adds them to the activity rollup in one transaction. The rollup
 * counts exactly the rows the insert added (RETURNING): a redelivered event inserts nothing and so adds
 * nothing, and a failed batch leaves neither behind. Returns how many generations were added.
 */
export async function recordGenerations(
  db: Kysely<GenerationsTables>,
  rows: readonly Insertable<GenerationsTable>[],
): Promise<number> {
  if (rows.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    const withApps = await withAppIds(trx, rows);
    const inserted = await trx
      .insertInto("generations")
      .values(withApps)
      .onConflict((conflict) => conflict.column("id").doNothing())
      .returning([
        "account_id",
        "created_at",
        "model",
        "provider",
        "key_hash",
        "app_id",
        "prompt_tokens",
        "completion_tokens",
        "reasoning_tokens",
        "cost",
        "is_byok",
        "upstream_inference_cost",
      ])
      .execute();
    await addToActivity(trx, inserted);
    return inserted.length;
  });
}

type Inserted = Pick<
  Selectable<GenerationsTable>,
  | "account_id"
  | "created_at"
  | "model"
  | "provider"
  | "key_hash"
  | "app_id"
  | "prompt_tokens"
  | "completion_tokens"
  | "reasoning_tokens"
  | "cost"
  | "is_byok"
  | "upstream_inference_cost"
>;

/** The referer's origin names the app; its id comes from (or is added to) the apps table. */
async function withAppIds(
  trx: Transaction<GenerationsTables>,
  rows: readonly Insertable<GenerationsTable>[],
): Promise<Insertable<GenerationsTable>[]> {
  const origins = [...new Set(rows.flatMap((row) => originOf(row.http_referer) ?? []))].sort();
  if (origins.length === 0) return [...rows];
  // DO UPDATE (to the same value) so that RETURNING also names the apps that already existed; sorted,
  // so concurrent batches lock the same rows in the same order.
  const apps = await trx
    .insertInto("apps")
    .values(origins.map((origin) => ({ origin })))
    .onConflict((conflict) => conflict.column("origin").doUpdateSet({ origin: sql`excluded.origin` }))
    .returning(["id", "origin"])
    .execute();
  const ids = new Map(apps.map((app) => [app.origin, app.id]));
  return rows.map((row) => ({ ...row, app_id: ids.get(originOf(row.http_referer) ?? "") ?? null }));
}

export function originOf(referer: string | null | undefined): string | undefined {
  return referer && URL.canParse(referer) ? new URL(referer).origin : undefined;
}

type ActivityRow = Insertable<ActivityDailyTable>;

/**
 * Sums the inserted rows per rollup key and adds the sums to the stored ones. A request no provider
 * was tried for has no endpoint to count under and is left out (its record still exists).
 */
async function addToActivity(
  trx: Transaction<GenerationsTables>,
  inserted: readonly Inserted[],
): Promise<void> {
  const sums = new Map<string, ActivityRow & { usagePico: bigint; byokPico: bigint }>();
  for (const row of inserted) {
    if (row.provider === "") continue;
    const day = row.created_at.toISOString().slice(0, 10);
    const appId = row.app_id ?? 0;
    const key = JSON.stringify([row.account_id, day, row.model, row.provider, row.key_hash, appId]);
    const sum = sums.get(key) ?? {
      account_id: row.account_id,
      day,
      model: row.model,
      provider: row.provider,
      key_hash: row.key_hash,
      app_id: appId,
      requests: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      reasoning_tokens: 0,
      usage: "0",
      byok_usage_inference: "0",
      usagePico: 0n,
      byokPico: 0n,
    };
    sum.requests = Number(sum.requests) + 1;
    sum.prompt_tokens = Number(sum.prompt_tokens) + row.prompt_tokens;
    sum.completion_tokens = Number(sum.completion_tokens) + row.completion_tokens;
    sum.reasoning_tokens = Number(sum.reasoning_tokens) + row.reasoning_tokens;
    sum.usagePico += usdToPico(row.cost);
    // What the provider charged for inference on the account's own key (OpenRouter's byok_usage_inference).
    if (row.is_byok) sum.byokPico += usdToPico(row.upstream_inference_cost);
    sums.set(key, sum);
  }
  if (sums.size === 0) return;
  // Sorted by key: concurrent consumers lock rollup rows in one order, so they cannot deadlock.
  const values = [...sums.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, { usagePico, byokPico, ...row }]) => ({
      ...row,
      usage: picoToDecimalString(usagePico),
      byok_usage_inference: picoToDecimalString(byokPico),
    }));
  await trx
    .insertInto("activity_daily")
    .values(values)
    .onConflict((conflict) =>
      conflict.columns(["account_id", "day", "model", "provider", "key_hash", "app_id"]).doUpdateSet({
        requests: sql`activity_daily.requests + excluded.requests`,
        prompt_tokens: sql`activity_daily.prompt_tokens + excluded.prompt_tokens`,
        completion_tokens: sql`activity_daily.completion_tokens + excluded.completion_tokens`,
        reasoning_tokens: sql`activity_daily.reasoning_tokens + excluded.reasoning_tokens`,
        usage: sql`activity_daily.usage + excluded.usage`,
        byok_usage_inference: sql`activity_daily.byok_usage_inference + excluded.byok_usage_inference`,
      }),
    )
    .execute();
}
