import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DefaultedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** numeric(38,12) USD: pg returns the exact decimal text; written from @gw/money's decimal strings. */
type Usd = ColumnType<string, string, string>;

export interface AttemptRecord {
  provider: string;
  model: string;
  status: number;
  latency_ms: number;
  is_byok: boolean;
}

/** jsonb: read as parsed JSON, written as JSON text (pg would turn a JS array into a Postgres array). */
type Attempts = ColumnType<AttemptRecord[], string, string>;

export interface GenerationsTable {
  /** The generation id, which is the usage event's id. */
  id: string;
  account_id: string;
  key_hash: string;
  model: string;
  provider: string;
  api_type: string;
  streamed: boolean;
  cancelled: boolean;
  finish_reason: string | null;
  native_finish_reason: string | null;
  upstream_id: string | null;
  created_at: Timestamp;
  latency_ms: number;
  generation_time_ms: number;
  is_byok: boolean;
  estimated: boolean;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  cost: Usd;
  upstream_inference_cost: Usd;
  upstream_inference_prompt_cost: Usd;
  upstream_inference_completions_cost: Usd;
  attempts: Attempts;
  ingested_at: DefaultedTimestamp;
  /** App attribution: the request's HTTP-Referer (origin and path) and X-Title; app_id names the origin's app. */
  http_referer: ColumnType<string | null, string | null | undefined, string | null>;
  app_title: ColumnType<string | null, string | null | undefined, string | null>;
  app_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** What prompt caching saved (OpenRouter's `cache_discount`), USD; null when nothing was cached or written. */
  cache_discount: ColumnType<string | null, string | null | undefined, string | null>;
  /** The request's `user` (OpenRouter's `external_user`) and its User-Agent; null when not sent. */
  external_user: NullableText;
  user_agent: NullableText;
  /** A failed generation's error as the client was told it: HTTP status, reason code, message. */
  error_status: ColumnType<number | null, number | null | undefined, number | null>;
  error_reason: NullableText;
  /** Media the provider reported (parts of prompt / completion tokens) and their part of the prompt cost, USD. */
  audio_tokens: ColumnType<number, number | undefined, number>;
  image_tokens: ColumnType<number, number | undefined, number>;
  document_tokens: ColumnType<number, number | undefined, number>;
  completion_audio_tokens: ColumnType<number, number | undefined, number>;
  audio_cost: ColumnType<string, string | undefined, string>;
  image_cost: ColumnType<string, string | undefined, string>;
  error_message: NullableText;
  /** The web plugin's search ("native" or "exa") and its billed searches or results; null without one. */
  web_search_engine: NullableText;
  num_search_results: ColumnType<number | null, number | null | undefined, number | null>;
  /** What those searches cost, USD (0 without one): cost_details.upstream_inference_web_search_cost. */
  web_search_cost: ColumnType<string, string | undefined, string>;
}

type NullableText = ColumnType<string | null, string | null | undefined, string | null>;

export interface AppsTable {
  id: ColumnType<number, never, never>;
  origin: string;
  created_at: DefaultedTimestamp;
}

/** bigint: @gw/db reads int8 as a JS bigint (exact); the consumer adds to it in SQL. */
type Count = ColumnType<bigint, number | bigint, number | bigint>;

/**
 * The activity rollup (migration 20261123T170000_activity). `day` is a UTC date, written as 'YYYY-MM-DD'
 * and read back with to_char (pg would turn a bare date into a local-time Date).
 */
export interface ActivityDailyTable {
  account_id: string;
  day: ColumnType<string, string, string>;
  model: string;
  provider: string;
  key_hash: string;
  /** 0 when the request named no app. */
  app_id: number;
  requests: Count;
  prompt_tokens: Count;
  completion_tokens: Count;
  reasoning_tokens: Count;
  usage: Usd;
  byok_usage_inference: Usd;
}

type Json = ColumnType<unknown, string, string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface MessageBatchesTable {
  id: string;
  account_id: string;
  key_hash: string;
  created_at: DefaultedTimestamp;
  expires_at: Timestamp;
  ended_at: NullableTimestamp;
  cancel_initiated_at: NullableTimestamp;
}

export interface MessageBatchItemsTable {
  id: ColumnType<string, never, never>;
  batch_id: string;
  custom_id: string;
  params: Json;
  state: ColumnType<string, string | undefined, string>;
  lease_until: NullableTimestamp;
  result: ColumnType<unknown, string | null | undefined, string | null>;
}

export interface GenerationsTables {
  generations: GenerationsTable;
  apps: AppsTable;
  activity_daily: ActivityDailyTable;
  message_batches: MessageBatchesTable;
  message_batch_items: MessageBatchItemsTable;
}
