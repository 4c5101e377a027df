import { picoToUsdNumber, usdToPico } from "@gw/money";
import { type Kysely, sql } from "kysely";
import type { GenerationsTables } from "../db/schema.js";

/** OpenRouter's ActivityItem (`GET /api/v1/activity`), one per UTC day × model × provider. */
export interface ActivityItem {
  date: string;
  model: string;
  model_permaslug: string;
  /** The catalogue has no endpoint ids: provider and model name the endpoint. */
  endpoint_id: string;
  /** The provider's id (the generations app does not hold the catalogue's display names). */
  provider_name: string;
  usage: number;
  byok_usage_inference: number;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  reasoning_tokens: number;
}

export interface ActivityFilter {
  accountId: string;
  /** Inclusive UTC dates, 'YYYY-MM-DD'. */
  from: string;
  to: string;
  keyHash?: string | undefined;
  appId?: number | undefined;
}

/**
 * Reads the rollup, never the generations: at most one row per key and app for each day × model ×
 * provider, found through the primary key's (account_id, day) prefix. The account is part of the query,
 * so another account's activity does not exist for the caller.
 */
export async function readActivity(
  db: Kysely<GenerationsTables>,
  filter: ActivityFilter,
): Promise<ActivityItem[]> {
  let query = db
    .selectFrom("activity_daily")
    .select([
      sql<string>`to_char(day, 'YYYY-MM-DD')`.as("date"),
      "model",
      "provider",
      sql<string>`sum(requests)::text`.as("requests"),
      sql<string>`sum(prompt_tokens)::text`.as("prompt_tokens"),
      sql<string>`sum(completion_tokens)::text`.as("completion_tokens"),
      sql<string>`sum(reasoning_tokens)::text`.as("reasoning_tokens"),
      sql<string>`sum(usage)::text`.as("usage"),
      sql<string>`sum(byok_usage_inference)::text`.as("byok_usage_inference"),
    ])
    .where("account_id", "=", filter.accountId)
    .where("day", ">=", filter.from)
    .where("day", "<=", filter.to);
  if (filter.keyHash !== undefined) query = query.where("key_hash", "=", filter.keyHash);
  if (filter.appId !== undefined) query = query.where("app_id", "=", filter.appId);
  const rows = await query
    .groupBy(["day", "model", "provider"])
    .orderBy("day", "desc")
    .orderBy("model")
    .orderBy("provider")
    .execute();
  return rows.map((row) => ({
    date: row.date,
    model: row.model,
    model_permaslug: row.model,
    endpoint_id: `${row.provider}:${row.model}`,
    provider_name: row.provider,
    usage: picoToUsdNumber(usdToPico(row.usage)),
    byok_usage_inference: picoToUsdNumber(usdToPico(row.byok_usage_inference)),
    requests: Number(row.requests),
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
    reasoning_tokens: Number(row.reasoning_tokens),
  }));
}
