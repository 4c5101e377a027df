import type { Envelope, UsageRecorded } from "@gw/events";
import { picoToDecimalString, usdToPico } from "@gw/money";
import type { Insertable, Selectable } from "kysely";
import type { AttemptRecord, GenerationsTable } from "../db/schema.js";

export type GenerationRow = Selectable<GenerationsTable>;

/**
 * A usage event → one generation row. The id is the envelope's event id (the generation id), which is what
 * makes ingestion idempotent; proto's empty strings become nulls so "not reported" is explicit.
 */
export function rowFromUsage(envelope: Envelope, usage: UsageRecorded): Insertable<GenerationsTable> {
  const attempts: AttemptRecord[] = usage.attempts.map((attempt) => ({
    provider: attempt.provider,
    model: attempt.model,
    status: attempt.status,
    latency_ms: attempt.latencyMs,
    is_byok: attempt.isByok,
  }));
  return {
    id: envelope.eventId,
    account_id: usage.accountId || envelope.accountId,
    key_hash: usage.keyHash,
    model: usage.model,
    provider: usage.provider,
    api_type: usage.apiType,
    streamed: usage.streamed,
    cancelled: usage.cancelled,
    finish_reason: usage.finishReason || null,
    native_finish_reason: usage.nativeFinishReason || null,
    upstream_id: usage.upstreamId || null,
    created_at: usage.createdAt ?? envelope.occurredAt ?? new Date(),
    latency_ms: usage.latencyMs,
    generation_time_ms: usage.generationTimeMs,
    is_byok: usage.isByok,
    estimated: usage.estimated,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
    cached_tokens: usage.cachedTokens,
    cache_write_tokens: usage.cacheWriteTokens,
    reasoning_tokens: usage.reasoningTokens,
    cost: picoToDecimalString(usage.costPico),
    upstream_inference_cost: picoToDecimalString(
      usage.upstreamPromptCostPico + usage.upstreamCompletionCostPico,
    ),
    upstream_inference_prompt_cost: picoToDecimalString(usage.upstreamPromptCostPico),
    upstream_inference_completions_cost: picoToDecimalString(usage.upstreamCompletionCostPico),
    attempts: JSON.stringify(attempts),
    // Validated by the edge; app_id is given by the consumer, which knows the apps table.
    http_referer: usage.httpReferer || null,
    app_title: usage.appTitle || null,
    cache_discount: usedPromptCache(usage) ? picoToDecimalString(usage.cacheDiscountPico) : null,
    external_user: usage.externalUser || null,
    user_agent: usage.userAgent || null,
    // A failure is recorded whole or not at all: its status is what says there was one.
    error_status: usage.errorStatus === 0 ? null : usage.errorStatus,
    error_reason: usage.errorStatus === 0 ? null : usage.errorReason || null,
    error_message: usage.errorStatus === 0 ? null : usage.errorMessage,
    audio_tokens: usage.audioTokens,
    image_tokens: usage.imageTokens,
    document_tokens: usage.documentTokens,
    completion_audio_tokens: usage.completionAudioTokens,
    audio_cost: picoToDecimalString(usage.audioCostPico),
    image_cost: picoToDecimalString(usage.imageCostPico),
    // A search is recorded with its engine or not at all.
    web_search_engine: usage.webSearchEngine || null,
    num_search_results: usage.webSearchEngine ? usage.numSearchResults : null,
    web_search_cost: picoToDecimalString(usage.webSearchCostPico),
  };
}

/** A stored row back in the event's shape, for GenerationService.Get. */
export function usageFromRow(row: GenerationRow): UsageRecorded {
  return {
    generationId: row.id,
    accountId: row.account_id,
    keyHash: row.key_hash,
    // Which lease admitted a request matters to billing only; the record does not keep it.
    leaseId: "",
    model: row.model,
    provider: row.provider,
    apiType: row.api_type,
    streamed: row.streamed,
    cancelled: row.cancelled,
    finishReason: row.finish_reason ?? "",
    nativeFinishReason: row.native_finish_reason ?? "",
    upstreamId: row.upstream_id ?? "",
    createdAt: row.created_at,
    latencyMs: row.latency_ms,
    generationTimeMs: row.generation_time_ms,
    isByok: row.is_byok,
    estimated: row.estimated,
    promptTokens: row.prompt_tokens,
    completionTokens: row.completion_tokens,
    totalTokens: row.total_tokens,
    cachedTokens: row.cached_tokens,
    cacheWriteTokens: row.cache_write_tokens,
    reasoningTokens: row.reasoning_tokens,
    costPico: usdToPico(row.cost),
    upstreamPromptCostPico: usdToPico(row.upstream_inference_prompt_cost),
    upstreamCompletionCostPico: usdToPico(row.upstream_inference_completions_cost),
    attempts: row.attempts.map((attempt) => ({
      provider: attempt.provider,
      model: attempt.model,
      status: attempt.status,
      latencyMs: attempt.latency_ms,
      isByok: attempt.is_byok,
      // Whose fault a failure was matters to endpoint health only (keys app); the record does not keep it.
      fault: "",
    })),
    httpReferer: row.http_referer ?? "",
    appTitle: row.app_title ?? "",
    cacheDiscountPico: row.cache_discount === null ? 0n : usdToPico(row.cache_discount),
    externalUser: row.external_user ?? "",
    userAgent: row.user_agent ?? "",
    errorStatus: row.error_status ?? 0,
    errorReason: row.error_reason ?? "",
    errorMessage: row.error_message ?? "",
    audioTokens: row.audio_tokens,
    imageTokens: row.image_tokens,
    documentTokens: row.document_tokens,
    completionAudioTokens: row.completion_audio_tokens,
    audioCostPico: usdToPico(row.audio_cost),
    imageCostPico: usdToPico(row.image_cost),
    webSearchEngine: row.web_search_engine ?? "",
    numSearchResults: row.num_search_results ?? 0,
    webSearchCostPico: usdToPico(row.web_search_cost),
  };
}

/** Whether the request read or wrote the provider's prompt cache, i.e. whether a cache discount applies. */
function usedPromptCache(usage: UsageRecorded): boolean {
  return usage.cachedTokens > 0 || usage.cacheWriteTokens > 0;
}
