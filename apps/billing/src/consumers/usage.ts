import type { ConsumedMessage, EventSubscriber, MessageHandler, Subscription } from "@gw/events";
import {
  decodeEnvelope,
  decodePayload,
  type Envelope,
  USAGE_RECORDED_V1,
  type UsageRecorded,
} from "@gw/events";
import type { AdmissionStore } from "@gw/hotstore";
import type { Logger } from "@gw/logger";
import type { Kysely } from "kysely";
import type { BillingTables } from "../db/schema.js";
import { insertUsageEntry, inTransaction, type UsageEntryInput } from "../repositories/ledger-write.js";

export const USAGE_CONSUMER_GROUP = "billing";

export interface UsageConsumerDeps {
  db: Kysely<BillingTables>;
  store: AdmissionStore;
  logger: Logger;
}

/** A message that can never be processed; thrown so the bus dead-letters it with this reason. */
export class PoisonMessageError extends Error {
  override name = "PoisonMessageError";
}

/**
 * Turns each usage event into one ledger debit. The insert is idempotent on the event id (a unique
 * constraint), so at-least-once delivery debits exactly once; the handler resolves (and the offset is
 * committed) only after the transaction commits. The hot view is updated afterwards.
 */
export function usageHandler(deps: UsageConsumerDeps): MessageHandler {
  return async (message: ConsumedMessage) => {
    const envelope = decodeEnvelope(message.value);
    const usage = decodePayload(USAGE_RECORDED_V1, envelope);
    if (!usage) {
      deps.logger.debug({ eventType: envelope.eventType }, "usage consumer skips another event type");
      return;
    }
    const input = usageEntry(envelope, usage);
    const written = await inTransaction(deps.db, (trx) => insertUsageEntry(trx, input));
    await applyToView(deps, input, written.id, usage.generationId || envelope.eventId, usage.leaseId);
  };
}

/**
 * The ledger is already correct here; a view that misses this entry because Redis failed is healed by
 * its next rebase, so a Redis outage must not dead-letter usage that is safely recorded.
 */
async function applyToView(
  deps: UsageConsumerDeps,
  input: UsageEntryInput,
  entryId: bigint,
  pendingRef: string,
  leaseRef: string,
): Promise<void> {
  try {
    await deps.store.applyLedgerEntry(input.accountId, {
      entryId,
      amountPico: -input.costPico,
      pendingRef,
      // A request admitted under a budget lease: its cost moves out of the lease's hold.
      ...(leaseRef ? { leaseRef } : {}),
      // Counted in the key's loaded spend windows that the request falls into.
      ...(input.keyHash
        ? { keyHash: input.keyHash, createdAtMs: input.createdAt.getTime(), byokPico: input.byokCostPico }
        : {}),
    });
  } catch (error) {
    deps.logger.warn(
      { err: error, accountId: input.accountId, eventId: input.eventId },
      "usage recorded but not applied to the hot view",
    );
  }
}

function usageEntry(envelope: Envelope, usage: UsageRecorded): UsageEntryInput {
  if (!envelope.eventId) throw new PoisonMessageError("usage event without event_id");
  if (!envelope.accountId) throw new PoisonMessageError("usage event without account_id");
  if (usage.accountId && usage.accountId !== envelope.accountId) {
    throw new PoisonMessageError("usage event account_id differs from its envelope's");
  }
  if (usage.costPico < 0n) throw new PoisonMessageError("usage event with a negative cost");
  const byokCost = usage.isByok ? usage.upstreamPromptCostPico + usage.upstreamCompletionCostPico : 0n;
  return {
    accountId: envelope.accountId,
    eventId: envelope.eventId,
    keyHash: usage.keyHash,
    model: usage.model,
    isByok: usage.isByok,
    costPico: usage.costPico,
    byokCostPico: byokCost < 0n ? 0n : byokCost,
    // Windows follow when the request happened, not when it was ingested (lag across midnight).
    createdAt: usage.createdAt ?? envelope.occurredAt ?? new Date(),
  };
}

export function subscribeUsage(
  bus: EventSubscriber,
  topic: string,
  deps: UsageConsumerDeps,
): Promise<Subscription> {
  return bus.subscribe({ topic, groupId: USAGE_CONSUMER_GROUP, handler: usageHandler(deps) });
}
