import { type ChargePolicy, chargedPico, type Pico } from "@gw/money";
import { type EncodedEvent, encodeEvent, USAGE_RECORDED_V1, type UsageRecorded } from "./envelope.js";

/** A request's price at catalogue rates, in integer pico-dollars (the edge's canonical Cost). */
export interface CatalogueCost {
  promptPico: bigint;
  completionPico: bigint;
  requestPico: bigint;
  totalPico: bigint;
  /** What prompt caching saved against the plain prompt price (OpenRouter's `cache_discount`); absent = 0. */
  cacheDiscountPico?: bigint | undefined;
  /** Of the prompt cost: audio tokens at the audio price, and images at the per-image price; absent = 0. */
  audioPico?: bigint | undefined;
  imagePico?: bigint | undefined;
  /** The web plugin's searches, in the total but in neither upstream part; absent = 0. */
  webSearchPico?: bigint | undefined;
}

/** Token counts in OpenAI's accounting: prompt includes cached and cache-write, completion reasoning. */
export interface UsageTokens {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  /** Media as the provider reported it (parts of prompt / completion tokens); absent = none reported. */
  audioTokens?: number | undefined;
  imageTokens?: number | undefined;
  documentTokens?: number | undefined;
  completionAudioTokens?: number | undefined;
}

export interface UsageAttempt {
  provider: string;
  model: string;
  status: number;
  latencyMs: number;
  isByok: boolean;
  /** Whose fault a failed attempt was ("provider", "caller", "gateway", "cancelled"); absent = it served. */
  fault?: string | undefined;
}

/**
 * Everything the producer (the edge) knows about a finished request. Structurally the edge's
 * Generation, so the edge passes its own record and consumers' tests build the same input: there is
 * one encoder of the usage event, this one, and no test hand-writes the figures the edge would send.
 */
export interface UsageFacts {
  generationId: string;
  accountId: string;
  keyHash: string;
  apiType: string;
  streamed: boolean;
  cancelled: boolean;
  model: string;
  provider: string;
  upstreamId: string | undefined;
  finishReason: string;
  nativeFinishReason: string | undefined;
  usage: UsageTokens;
  estimated: boolean;
  /** The provider's price at catalogue rates, whoever's credential paid it. */
  cost: CatalogueCost;
  isByok: boolean;
  /** Epoch ms: request accepted, serving attempt started, response ended. */
  startedAt: number;
  generationStartedAt: number | undefined;
  endedAt: number;
  attempts: UsageAttempt[];
  /** Who sent it (OpenRouter's app attribution headers), already validated; absent when not sent. */
  attribution?: UsageAttribution | undefined;
  /** The request's end-user id (`user`, Anthropic's `metadata.user_id`), validated; absent when not sent. */
  externalUser?: string | undefined;
  /** Why a failed generation failed, as the client was told; absent when it did not fail. */
  error?: UsageError | undefined;
  /** The web plugin's billed searches (native) or results (exa); absent without a billed search. */
  webSearch?: UsageWebSearch | undefined;
}

/** Which search served the web plugin and how many searches (native) or results (exa) were billed. */
export interface UsageWebSearch {
  engine: "native" | "exa";
  count: number;
  /**
   * The provider's searches beyond those held for, which the charge leaves out so a spending cap holds
   * (Gemini 3 bills each query and has no cap of its own). On the edge's record and log, not the event.
   */
  unbilled?: number | undefined;
}

/** A request's `HTTP-Referer`, `X-Title` and `User-Agent`; any may be empty. */
export interface UsageAttribution {
  httpReferer: string;
  appTitle: string;
  /** Absent in records built before the field (the edge always sets it, possibly empty). */
  userAgent?: string | undefined;
}

/** The error a failed generation answered with: HTTP status, reason code, message. */
export interface UsageError {
  status: number;
  reason: string;
  message: string;
}

/**
 * What the account's credits are charged for a usage event: the figure itself when the producer has
 * already priced the generation (the edge charges each generation once, see @gw/money's
 * `chargedPico`), or the policy to charge it by (consumers' tests build their events that way).
 */
export type UsageCharge = Pico | ChargePolicy;

/**
 * The `usage.recorded` v1 payload, with both figures consumers need and derive nothing from:
 * `cost_pico` is what the account's credits are charged, `upstream_*_cost_pico` the provider's price
 * (the per-request price is part of the prompt cost, so prompt + completion = the upstream total).
 */
export function usageRecorded(facts: UsageFacts, charge: UsageCharge, leaseId = ""): UsageRecorded {
  const { usage, cost } = facts;
  return {
    generationId: facts.generationId,
    accountId: facts.accountId,
    keyHash: facts.keyHash,
    model: facts.model,
    provider: facts.provider,
    apiType: facts.apiType,
    streamed: facts.streamed,
    cancelled: facts.cancelled,
    finishReason: facts.finishReason,
    nativeFinishReason: facts.nativeFinishReason ?? "",
    upstreamId: facts.upstreamId ?? "",
    createdAt: new Date(facts.startedAt),
    latencyMs: elapsed(facts.startedAt, facts.endedAt),
    generationTimeMs:
      facts.generationStartedAt === undefined ? 0 : elapsed(facts.generationStartedAt, facts.endedAt),
    isByok: facts.isByok,
    estimated: facts.estimated,
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    totalTokens: usage.promptTokens + usage.completionTokens,
    cachedTokens: usage.cachedTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
    reasoningTokens: usage.reasoningTokens,
    costPico: typeof charge === "bigint" ? charge : chargedPico(cost, facts.isByok, charge),
    upstreamPromptCostPico: cost.promptPico + cost.requestPico,
    upstreamCompletionCostPico: cost.completionPico,
    attempts: facts.attempts.map((attempt) => ({ ...attempt, fault: attempt.fault ?? "" })),
    leaseId,
    httpReferer: facts.attribution?.httpReferer ?? "",
    appTitle: facts.attribution?.appTitle ?? "",
    cacheDiscountPico: cost.cacheDiscountPico ?? 0n,
    externalUser: facts.externalUser ?? "",
    userAgent: facts.attribution?.userAgent ?? "",
    errorStatus: facts.error?.status ?? 0,
    errorReason: facts.error?.reason ?? "",
    errorMessage: facts.error?.message ?? "",
    audioTokens: usage.audioTokens ?? 0,
    imageTokens: usage.imageTokens ?? 0,
    documentTokens: usage.documentTokens ?? 0,
    completionAudioTokens: usage.completionAudioTokens ?? 0,
    audioCostPico: cost.audioPico ?? 0n,
    imageCostPico: cost.imagePico ?? 0n,
    webSearchEngine: facts.webSearch?.engine ?? "",
    numSearchResults: facts.webSearch?.count ?? 0,
    webSearchCostPico: cost.webSearchPico ?? 0n,
  };
}

/** Envelope with event id = generation id (consumers are idempotent on it) and key = account id. */
export function encodeUsageRecorded(facts: UsageFacts, charge: UsageCharge, leaseId = ""): EncodedEvent {
  return encodeEvent(USAGE_RECORDED_V1, usageRecorded(facts, charge, leaseId), {
    accountId: facts.accountId,
    eventId: facts.generationId,
    occurredAt: new Date(facts.endedAt),
  });
}

function elapsed(from: number, to: number): number {
  return Math.max(0, Math.round(to - from));
}

/**
 * The linger of the usage consumers (billing's ledger, generations' records, the health figures):
 * usage may be applied up to this much later in exchange for batches large enough that their fixed
 * cost stops dominating. Admission never waits on it (it spends budget leases), and a generation's
 * record was never immediate. Chosen by measurement (docs/scaling.md, "The usage consumers' linger"):
 * at 1,000 req/s, 100 ms gave 0.033 PostgreSQL commits per request, 250 ms 0.019–0.021, 400 ms 0.0175
 * with the answer → record p99 at 471 ms, inside the 1 s freshness budget.
 */
export const USAGE_CONSUMER_LINGER_MS = 400;

/**
 * The most usage events the usage consumers apply in one transaction (the bus's default is 500). The
 * records' statement also updates the activity rollup and the endpoint-health minute a batch touches,
 * a fixed two rows or so per batch: at saturation a fetch brings ~650 events of one partition
 * (`LINGER_MIN_BYTES`), and cutting it at 500 would double those updates for the remainder.
 */
export const USAGE_CONSUMER_MAX_BATCH = 1_000;
