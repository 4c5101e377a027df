import type { Principal } from "@gw/auth";
import type { GatewayError } from "@gw/errors";
import type { UsageError } from "@gw/events";
import type { Pico } from "@gw/money";
import { leaseIdOf } from "../admission/admission.js";
import type { Hold } from "../admission/admit.js";
import type { Attribution } from "../canonical/attribution.js";
import { computeCost, withWebSearch, ZERO_COST } from "../canonical/cost.js";
import type { FinishReason } from "../canonical/finish-reason.js";
import type { ApiType, AttemptRecord, Generation } from "../canonical/generation.js";
import type { PlannedAttempt } from "../planning/plan.js";
import { finalError } from "../providers/failure.js";
import type { ResponseIdentity } from "../translate/openai/chat-response.js";
import type { Measured } from "../usage/measure.js";
import type { AttemptsFailure, AttemptsSuccess } from "./attempts.js";
import type { EdgeContext } from "./edge-context.js";
import type { NativeSearchCharge } from "./web-native.js";

/** What a generation record needs of its request, whichever surface served it. */
export interface GenerationSubject {
  generationId: string;
  principal: Principal;
  startedAt: number;
  apiType: ApiType;
  /** The model the client asked for, recorded when no attempt was made. */
  requestedModel: string;
  hold: Hold;
  /** The app attribution headers, recorded as they are. */
  attribution?: Attribution | undefined;
  /** The request's `user` (validated), recorded as OpenRouter's `external_user`. */
  externalUser?: string | undefined;
  /**
   * The web plugin's search, billed with the answer, only when an attempt is billed: a request every
   * attempt failed costs the caller nothing, the search included (the gateway absorbs it: the caller
   * got no answer and did nothing wrong); a caller who cancels once a provider has the request pays
   * for it with the estimated prompt, as for the provider's work.
   */
  webSearchPico?: bigint | undefined;
  /** The search API's results in the prompt (billed as webSearchPico), for the record. */
  webSearchResults?: number | undefined;
  /**
   * The provider's own searches on the serving attempt, priced from what it reported, or from what the
   * answer showed when the usage is estimated (web-native.ts).
   */
  nativeSearch?: ((attempt: PlannedAttempt, measured: Measured) => NativeSearchCharge) | undefined;
  /** The plugins that ran before planning (`web`), for the record. */
  plugins?: string[] | undefined;
}

/** How a request ended: served by an attempt, or not served at all. */
export type Ending =
  | {
      served: true;
      success: Pick<AttemptsSuccess<unknown>, "attempt" | "startedAt" | "records">;
      streamed: boolean;
      cancelled: boolean;
      measured: Measured;
      finishReason: FinishReason;
      nativeFinishReason: string | undefined;
      upstreamId: string | undefined;
      endedAt: number;
      /** A stream that broke after its first byte: the error its in-band frame reported. */
      error?: GatewayError | undefined;
    }
  | { served: false; failure: AttemptsFailure; streamed: boolean; measured: Measured; endedAt: number };

/** A finished generation: its record (with the cost at catalogue prices) and what its account is charged. */
export interface Finished {
  record: Generation;
  chargedPico: Pico;
}

/**
 * The one end of every generation, whatever the surface: the record is built once (its cost computed
 * there, once), the charge is computed once from it, admission ends the hold with that charge and the
 * meter publishes it. The surface renders the answer's usage from what this returns.
 */
export function finishGeneration(
  context: Pick<EdgeContext, "admission" | "meter" | "settings"> & Partial<Pick<EdgeContext, "logger">>,
  subject: GenerationSubject,
  ending: Ending,
): Finished {
  const record = generationRecord(subject, ending);
  const unbilled = record.webSearch?.unbilled;
  // The operator pays the provider for these: said loudly, with what it takes to see the answer.
  if (unbilled)
    context.logger?.warn(
      { generationId: record.generationId, provider: record.provider, model: record.model, unbilled },
      "provider ran more web searches than were held for; the searches past the hold are not billed",
    );
  return { record, chargedPico: finishRecord(context, record, subject.hold) };
}

/**
 * A record built elsewhere (the provider proxy reads usage from native bodies): end its hold and publish
 * it. Returns the charge.
 */
export function finishRecord(
  context: Pick<EdgeContext, "admission" | "meter" | "settings">,
  record: Generation,
  hold: Hold,
): Pico {
  // The generation's one charge (for a BYOK request only the fee): the hold ends at it, the event carries it.
  const chargedPico = context.meter.charge(record);
  context.admission.finish(hold, chargedPico, record.served);
  context.meter.record(record, chargedPico, leaseIdOf(hold));
  return chargedPico;
}

function generationRecord(subject: GenerationSubject, ending: Ending): Generation {
  const attempt = ending.served ? ending.success.attempt : ending.failure.lastAttempt;
  const { measured } = ending;
  const billed = attempt !== undefined && (ending.served || measured.estimated);
  const native = billed ? subject.nativeSearch?.(attempt, measured) : undefined;
  const search = billed ? webSearchBilled(subject, native) : undefined;
  return {
    generationId: subject.generationId,
    accountId: subject.principal.accountId,
    keyHash: subject.principal.keyHash,
    apiType: subject.apiType,
    streamed: ending.streamed,
    cancelled: ending.served ? ending.cancelled : ending.failure.failure.kind === "cancelled",
    model: attempt?.model.id ?? subject.requestedModel,
    provider: attempt?.endpoint.providerId ?? "",
    upstreamId: ending.served ? ending.upstreamId : undefined,
    finishReason: ending.served ? ending.finishReason : "error",
    nativeFinishReason: ending.served ? ending.nativeFinishReason : undefined,
    usage: measured.usage,
    estimated: measured.estimated,
    cost: billed
      ? withWebSearch(
          computeCost(attempt.endpoint.pricing, measured.usage, measured.images),
          (subject.webSearchPico ?? 0n) + (native?.pico ?? 0n),
        )
      : ZERO_COST,
    isByok: attempt?.byok !== undefined,
    startedAt: subject.startedAt,
    generationStartedAt: ending.served ? ending.success.startedAt : undefined,
    endedAt: ending.endedAt,
    attempts: ending.served ? ending.success.records : ending.failure.records,
    served: ending.served,
    attribution: subject.attribution,
    externalUser: subject.externalUser,
    ...(subject.plugins ? { plugins: subject.plugins } : {}),
    error: endingError(ending),
    ...(search ? { webSearch: search } : {}),
  };
}

/** Which search the bill counts and how many: the search API's results, or the provider's searches. */
function webSearchBilled(
  subject: GenerationSubject,
  native: NativeSearchCharge | undefined,
): Generation["webSearch"] {
  if ((subject.webSearchPico ?? 0n) > 0n) return { engine: "exa", count: subject.webSearchResults ?? 0 };
  if (native !== undefined && native.searches > 0)
    return {
      engine: "native",
      count: native.searches,
      ...(native.unbilled ? { unbilled: native.unbilled } : {}),
    };
  return undefined;
}

/**
 * The error the client was answered with, for the record (a cancelled request has none: nobody was
 * answered). An unserved request's is the final error its surface rendered from the last failure.
 */
function endingError(ending: Ending): UsageError | undefined {
  if (ending.served) return ending.error === undefined ? undefined : usageError(ending.error);
  if (ending.failure.failure.kind === "cancelled") return undefined;
  return usageError(finalError(ending.failure.failure, {}));
}

function usageError(error: GatewayError): UsageError {
  return { status: error.status, reason: error.code ?? "", message: error.message };
}

/** How the answer names itself: our generation id and model id, and the provider that served it. */
export function identity(generationId: string, attempt: PlannedAttempt, now: number): ResponseIdentity {
  return {
    generationId,
    model: attempt.model.id,
    provider: attempt.endpoint.providerId,
    created: Math.floor(now / 1000),
  };
}

/** The attempts as the client sees them in an error's metadata. */
export function attemptsMetadata(records: readonly AttemptRecord[]): Record<string, unknown>[] {
  return records.map((record) => ({ provider: record.provider, model: record.model, status: record.status }));
}
