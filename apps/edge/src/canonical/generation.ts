import type { UsageError, UsageWebSearch } from "@gw/events";
import type { Attribution } from "./attribution.js";
import type { Cost } from "./cost.js";
import type { FinishReason } from "./finish-reason.js";
import type { TokenUsage } from "./tokens.js";

export type ApiType =
  | "chat"
  | "completions"
  | "responses"
  | "embeddings"
  | "messages"
  | "generate_content"
  | "proxy";

/** One try at one provider, fallbacks included. */
export interface AttemptRecord {
  provider: string;
  model: string;
  /** Upstream HTTP status, or 0 when no response arrived. */
  status: number;
  latencyMs: number;
  isByok: boolean;
  /** Whose fault a failed attempt was (planning/fault.ts); absent for the attempt that served. */
  fault?: AttemptFault;
  /** Transforms applied to the request sent on this attempt (`middle-out`); absent = sent as asked. */
  transforms?: string[];
}

/** Only "provider" counts against the endpoint's measured health. */
export type AttemptFault = "provider" | "caller" | "gateway" | "cancelled";

/** Everything known about a finished request: what the usage event and the settlement are built from. */
export interface Generation {
  generationId: string;
  accountId: string;
  keyHash: string;
  apiType: ApiType;
  streamed: boolean;
  cancelled: boolean;
  /** The model that served it (the requested one when nothing did) and the provider. */
  model: string;
  provider: string;
  upstreamId: string | undefined;
  finishReason: FinishReason;
  nativeFinishReason: string | undefined;
  usage: TokenUsage;
  estimated: boolean;
  cost: Cost;
  isByok: boolean;
  /** Epoch ms: request accepted, serving attempt started, response ended. */
  startedAt: number;
  generationStartedAt: number | undefined;
  endedAt: number;
  attempts: AttemptRecord[];
  /** True when a provider produced a response (as opposed to every attempt failing). */
  served: boolean;
  /** The app that sent it (`HTTP-Referer`, `X-Title`, `User-Agent`), when it said so. */
  attribution?: Attribution | undefined;
  /** The request's end-user id (`user`), when it sent one. */
  externalUser?: string | undefined;
  /**
   * The plugins the gateway ran for the request before any attempt (`web`: the search whose results
   * were in every attempt's prompt); absent = none. Like attempts' `transforms`, on the edge's record
   * only: the usage event carries the search itself (`webSearch`), its cost in the total.
   */
  plugins?: string[] | undefined;
  /** The error the client was answered with, when the generation failed (not when it was cancelled). */
  error?: UsageError | undefined;
  /** The web plugin's billed searches (native) or results (exa); absent when none was billed. */
  webSearch?: UsageWebSearch | undefined;
}
