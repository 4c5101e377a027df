import { type EncodedEvent, encodeUsageRecorded } from "@gw/events";
import { catalogueCost, exampleUsageFacts } from "@gw/events/testing";
import { type ChargePolicy, DEFAULT_CHARGE_POLICY } from "@gw/money";

/** A request as billing's tests describe it; everything else is the example facts'. */
export interface UsageSpec {
  accountId: string;
  keyHash?: string;
  model?: string;
  createdAt?: Date;
  leaseId?: string;
  isByok?: boolean;
  /** The request's price at catalogue rates (the charge follows from it, BYOK and the fee). */
  costPico?: bigint;
  /** The part of `costPico` that is the prompt's (default none). */
  promptCostPico?: bigint;
}

/**
 * The event the edge would publish for the request, built by the edge's own encoder
 * (`encodeUsageRecorded` in @gw/events): billing is never tested on a payload the producer cannot send.
 */
export function usageEventFor(
  spec: UsageSpec,
  eventId: string,
  policy: ChargePolicy = DEFAULT_CHARGE_POLICY,
): EncodedEvent {
  const price = spec.costPico ?? 0n;
  const prompt = spec.promptCostPico ?? 0n;
  const startedAt = spec.createdAt?.getTime() ?? Date.now();
  const facts = exampleUsageFacts({
    generationId: eventId,
    accountId: spec.accountId,
    keyHash: spec.keyHash ?? "",
    model: spec.model ?? "openai/gpt-4o",
    isByok: spec.isByok ?? false,
    cost: catalogueCost(prompt, price - prompt),
    startedAt,
    generationStartedAt: startedAt,
    endedAt: startedAt,
  });
  return encodeUsageRecorded(facts, policy, spec.leaseId ?? "");
}
