import type { AdmissionStore } from "@gw/admission-store";
import type {
  BatchHandler,
  ConsumedMessage,
  EventSubscriber,
  MessageHandler,
  Subscription,
} from "@gw/events";
import {
  decodeEnvelope,
  decodePayload,
  type Envelope,
  USAGE_CONSUMER_LINGER_MS,
  USAGE_RECORDED_V1,
  type UsageRecorded,
} from "@gw/events";
import type { Logger } from "@gw/logger";
import { timeLedgerApply } from "@gw/metrics";
import type { Kysely } from "kysely";
import type { BillingTables } from "../db/schema.js";
import { insertUsageEntries, inTransaction, type UsageEntryInput } from "../repositories/ledger-write.js";

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

/** One decoded usage event: its ledger row and what the hot view needs besides. */
interface UsageEvent {
  input: UsageEntryInput;
  pendingRef: string;
  leaseRef: string;
}

/**
 * Turns usage events into ledger debits: one transaction with one multi-row insert per batch. The insert
 * is idempotent on the event id (a unique constraint), so at-least-once delivery debits exactly once;
 * the handler resolves (and the bus commits the offsets) only after the transaction commits. The hot
 * view is updated afterwards, entry by entry, also with entries an earlier delivery already wrote. A
 * poison message fails its batch; the bus then retries the batch message by message and dead-letters
 * only that one.
 */
export function usageBatchHandler(deps: UsageConsumerDeps): BatchHandler {
  return async (messages: ConsumedMessage[]) => {
    const events = messages.flatMap((message) => usageEvent(deps, message));
    if (events.length === 0) return;
    const inputs = events.map((event) => event.input);
    const written = await timeLedgerApply("usage", () =>
      inTransaction(deps.db, (trx) => insertUsageEntries(trx, inputs)),
    );
    // One apply per event id (the view counts an entry once anyway), concurrently.
    const byEvent = new Map<string, UsageEvent>();
    for (const event of events)
      if (!byEvent.has(event.input.eventId)) byEvent.set(event.input.eventId, event);
    await Promise.all(
      [...byEvent.values()].map((event) => {
        const entry = written.get(event.input.eventId);
        if (!entry) throw new Error(`ledger entry of event ${event.input.eventId} not found after insert`);
        return applyToView(deps, event.input, entry.id, event.pendingRef, event.leaseRef);
      }),
    );
  };
}

/** The same handling for one message at a time (a batch of one). */
export function usageHandler(deps: UsageConsumerDeps): MessageHandler {
  const handleBatch = usageBatchHandler(deps);
  return (message: ConsumedMessage) => handleBatch([message]);
}

/** Empty for other event types on the topic; throws PoisonMessageError for a malformed usage event. */
function usageEvent(deps: UsageConsumerDeps, message: ConsumedMessage): UsageEvent[] {
  const envelope = decodeEnvelope(message.value);
  const usage = decodePayload(USAGE_RECORDED_V1, envelope);
  if (!usage) {
    deps.logger.debug({ eventType: envelope.eventType }, "usage consumer skips another event type");
    return [];
  }
  return [
    {
      input: usageEntry(envelope, usage),
      pendingRef: usage.generationId || envelope.eventId,
      leaseRef: usage.leaseId,
    },
  ];
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
  return bus.subscribe({
    topic,
    groupId: USAGE_CONSUMER_GROUP,
    lingerMs: USAGE_CONSUMER_LINGER_MS,
    batchHandler: usageBatchHandler(deps),
  });
}
