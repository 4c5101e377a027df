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
  message_batches: MessageBatchesTable;
  message_batch_items: MessageBatchItemsTable;
}
