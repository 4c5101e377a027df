import type { Insertable } from "kysely";
import { activityFromInserted, originOf } from "../activity/record.js";
import {
  type Pool,
  type PreparedStatement,
  runPrepared,
  type UnnestColumn,
  unnestFrom,
  unnestValues,
} from "../db/prepared.js";
import type { GenerationsTable } from "../db/schema.js";
import type { EventSamples } from "../health/store.js";
import { healthFromInserted, healthValues } from "../health/write.js";

type Row = Insertable<GenerationsTable>;

const at = (value: Date | string): string => (typeof value === "string" ? value : value.toISOString());

/** The records' columns as the batch carries them (app_id comes from the apps table, by origin). */
const COLUMNS: readonly UnnestColumn<Row>[] = [
  { name: "id", type: "text", value: (row) => row.id },
  { name: "account_id", type: "text", value: (row) => row.account_id },
  { name: "key_hash", type: "text", value: (row) => row.key_hash },
  { name: "model", type: "text", value: (row) => row.model },
  { name: "provider", type: "text", value: (row) => row.provider },
  { name: "api_type", type: "text", value: (row) => row.api_type },
  { name: "streamed", type: "boolean", value: (row) => row.streamed },
  { name: "cancelled", type: "boolean", value: (row) => row.cancelled },
  { name: "finish_reason", type: "text", value: (row) => row.finish_reason },
  { name: "native_finish_reason", type: "text", value: (row) => row.native_finish_reason },
  { name: "upstream_id", type: "text", value: (row) => row.upstream_id },
  { name: "created_at", type: "timestamptz", value: (row) => at(row.created_at) },
  { name: "latency_ms", type: "integer", value: (row) => row.latency_ms },
  { name: "generation_time_ms", type: "integer", value: (row) => row.generation_time_ms },
  { name: "is_byok", type: "boolean", value: (row) => row.is_byok },
  { name: "estimated", type: "boolean", value: (row) => row.estimated },
  { name: "prompt_tokens", type: "integer", value: (row) => row.prompt_tokens },
  { name: "completion_tokens", type: "integer", value: (row) => row.completion_tokens },
  { name: "total_tokens", type: "integer", value: (row) => row.total_tokens },
  { name: "cached_tokens", type: "integer", value: (row) => row.cached_tokens },
  { name: "cache_write_tokens", type: "integer", value: (row) => row.cache_write_tokens },
  { name: "reasoning_tokens", type: "integer", value: (row) => row.reasoning_tokens },
  { name: "cost", type: "numeric", value: (row) => row.cost },
  { name: "upstream_inference_cost", type: "numeric", value: (row) => row.upstream_inference_cost },
  {
    name: "upstream_inference_prompt_cost",
    type: "numeric",
    value: (row) => row.upstream_inference_prompt_cost,
  },
  {
    name: "upstream_inference_completions_cost",
    type: "numeric",
    value: (row) => row.upstream_inference_completions_cost,
  },
  { name: "attempts", type: "jsonb", value: (row) => row.attempts },
  { name: "http_referer", type: "text", value: (row) => row.http_referer },
  { name: "app_title", type: "text", value: (row) => row.app_title },
  { name: "cache_discount", type: "numeric", value: (row) => row.cache_discount },
  { name: "external_user", type: "text", value: (row) => row.external_user },
  { name: "user_agent", type: "text", value: (row) => row.user_agent },
  { name: "error_status", type: "integer", value: (row) => row.error_status },
  { name: "error_reason", type: "text", value: (row) => row.error_reason },
  { name: "error_message", type: "text", value: (row) => row.error_message },
  { name: "audio_tokens", type: "integer", value: (row) => row.audio_tokens ?? 0 },
  { name: "image_tokens", type: "integer", value: (row) => row.image_tokens ?? 0 },
  { name: "document_tokens", type: "integer", value: (row) => row.document_tokens ?? 0 },
  { name: "completion_audio_tokens", type: "integer", value: (row) => row.completion_audio_tokens ?? 0 },
  { name: "audio_cost", type: "numeric", value: (row) => row.audio_cost ?? "0" },
  { name: "image_cost", type: "numeric", value: (row) => row.image_cost ?? "0" },
  { name: "web_search_engine", type: "text", value: (row) => row.web_search_engine },
  { name: "web_search_cost", type: "numeric", value: (row) => row.web_search_cost ?? "0" },
  { name: "num_search_results", type: "integer", value: (row) => row.num_search_results },
];
const ORIGIN: UnnestColumn<Row> = {
  name: "app_origin",
  type: "text",
  value: (row) => originOf(row.http_referer),
};
const BATCH_COLUMNS = [...COLUMNS, ORIGIN];

/** What the rollup reads of each inserted record. */
const RETURNED = [
  "id",
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
].join(", ");

const stored = COLUMNS.map((column) => column.name);

/**
 * One statement per batch, whatever its size: the batch as unnest() parameters; the apps its referers
 * name (DO UPDATE to the same value, so RETURNING names the apps that already existed too; sorted, so
 * concurrent batches lock them in one order); the records, ON CONFLICT (id) DO NOTHING RETURNING; and
 * from exactly the rows returned, the activity rollup and the endpoint-health buckets. One statement is
 * one transaction: all of it commits or none.
 */
export const RECORD_USAGE: PreparedStatement = {
  name: "generations_record_usage_v2",
  text: `with batch as (
  select * from ${unnestFrom(BATCH_COLUMNS, 1, "b")}
), named_apps as (
  insert into apps (origin)
  select distinct app_origin from batch where app_origin is not null order by 1
  on conflict (origin) do update set origin = excluded.origin
  returning id, origin
), inserted as (
  insert into generations (${stored.join(", ")}, app_id)
  select ${stored.map((name) => `batch.${name}`).join(", ")}, named_apps.id
  from batch left join named_apps on named_apps.origin = batch.app_origin
  on conflict (id) do nothing
  returning ${RETURNED}
), ${activityFromInserted("inserted")}, ${healthFromInserted(BATCH_COLUMNS.length + 1, "inserted")}
select count(*)::integer as inserted from inserted`,
};

/**
 * Stores a batch of generations with the figures derived from them (activity rollup; endpoint-health
 * samples of the events whose records are new) in one statement. The caller passes each id once:
 * Postgres would skip an in-statement repeat too, but which copy wins is then not defined. Returns how
 * many records were added (a redelivery adds none, and then no figure either).
 */
export async function recordUsage(
  pool: Pool,
  rows: readonly Row[],
  health: readonly EventSamples[] = [],
): Promise<number> {
  if (rows.length === 0) return 0;
  const values = [...unnestValues(BATCH_COLUMNS, rows), ...healthValues(health)];
  const [result] = await runPrepared<{ inserted: number }>(pool, RECORD_USAGE, values);
  return result?.inserted ?? 0;
}
