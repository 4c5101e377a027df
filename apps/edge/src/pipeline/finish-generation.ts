import type { Principal } from "@gw/auth";
import { chargedPico } from "@gw/events";
import { leaseIdOf } from "../admission/admission.js";
import type { Hold } from "../admission/admit.js";
import type { Attribution } from "../canonical/attribution.js";
import { computeCost, ZERO_COST } from "../canonical/cost.js";
import type { FinishReason } from "../canonical/finish-reason.js";
import type { ApiType, AttemptRecord, Generation } from "../canonical/generation.js";
import type { PlannedAttempt } from "../planning/plan.js";
import type { ResponseIdentity } from "../translate/openai/chat-response.js";
import type { Measured } from "../usage/measure.js";
import type { AttemptsFailure, AttemptsSuccess } from "./attempts.js";
import type { EdgeContext } from "./edge-context.js";

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
    }
  | { served: false; failure: AttemptsFailure; streamed: boolean; measured: Measured; endedAt: number };

/**
 * The one end of every generation, whatever the surface: the record is built once, admission ends the
 * hold with its cost, and the meter publishes the usage event. Returns the record.
 */
export function finishGeneration(
  context: Pick<EdgeContext, "admission" | "meter" | "settings">,
  subject: GenerationSubject,
  ending: Ending,
): Generation {
  const record = generationRecord(subject, ending);
  finishRecord(context, record, subject.hold);
  return record;
}

/** A record built elsewhere (the provider proxy reads usage from native bodies): end its hold and publish it. */
export function finishRecord(
  context: Pick<EdgeContext, "admission" | "meter" | "settings">,
  record: Generation,
  hold: Hold,
): void {
  // The hold ends at what the account's credits are charged: for a BYOK request only the fee.
  context.admission.finish(hold, chargedPico(record.cost, record.isByok, context.settings), record.served);
  context.meter.record(record, leaseIdOf(hold));
}

function generationRecord(subject: GenerationSubject, ending: Ending): Generation {
  const attempt = ending.served ? ending.success.attempt : ending.failure.lastAttempt;
  const { measured } = ending;
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
    cost:
      attempt && (ending.served || measured.estimated)
        ? computeCost(attempt.endpoint.pricing, measured.usage, measured.images)
        : ZERO_COST,
    isByok: attempt?.byok !== undefined,
    startedAt: subject.startedAt,
    generationStartedAt: ending.served ? ending.success.startedAt : undefined,
    endedAt: ending.endedAt,
    attempts: ending.served ? ending.success.records : ending.failure.records,
    served: ending.served,
    attribution: subject.attribution,
  };
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
