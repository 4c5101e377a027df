import {
  type AccountLedgerEntry,
  type AdmissionStore,
  checkAccountId,
  checkEntry,
} from "@gw/admission-store";
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
  USAGE_CONSUMER_MAX_BATCH,
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
 * Turns usage events into ledger debits: one transaction with one fixed-shape insert per batch. The
 * insert is idempotent on the event id (a unique constraint), so at-least-once delivery debits exactly
 * once; the handler resolves (and the bus commits the offsets) only after the transaction commits. The
 * hot view is updated afterwards in one store call for the whole batch (one Redis round trip), also
 * with entries an earlier delivery already wrote. A poison message fails its batch; the bus then
 * retries the batch message by message and dead-letters only that one.
 */
export function usageBatchHandler(deps: UsageConsumerDeps): BatchHandler {
  return async (messages: ConsumedMessage[]) => {
    const events = messages.flatMap((message) => usageEvent(deps, message));
    if (events.length === 0) return;
    // Every delivery, redeliveries included, by event id: what the crash suite counts applications
    // against (off unless the service logs at debug; the ids are built only then).
    if (deps.logger.isLevelEnabled("debug"))
      deps.logger.debug({ eventIds: events.map((event) => event.input.eventId) }, "usage events delivered");
    const inputs = events.map((event) => event.input);
    const written = await timeLedgerApply("usage", () =>
      inTransaction(deps.db, (trx) => insertUsageEntries(trx, inputs)),
    );
    // One apply per event id (the view counts an entry once anyway), in batch order.
    const byEvent = new Map<string, UsageEvent>();
    for (const event of events)
      if (!byEvent.has(event.input.eventId)) byEvent.set(event.input.eventId, event);
    const updates = [...byEvent.values()].map((event) => {
      const entry = written.get(event.input.eventId);
      if (!entry) throw new Error(`ledger entry of event ${event.input.eventId} not found after insert`);
      return { event, update: viewUpdate(event, entry.id) };
    });
    await applyToView(deps, updates);
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

interface ViewUpdate {
  event: UsageEvent;
  update: AccountLedgerEntry;
}

function viewUpdate(event: UsageEvent, entryId: bigint): AccountLedgerEntry {
  const { input, pendingRef, leaseRef } = event;
  return {
    accountId: input.accountId,
    entry: {
      entryId,
      amountPico: -input.costPico,
      pendingRef,
      // A request admitted under a budget lease: its cost moves out of the lease's hold.
      ...(leaseRef ? { leaseRef } : {}),
      // Counted in the key's loaded spend windows that the request falls into.
      ...(input.keyHash
        ? { keyHash: input.keyHash, createdAtMs: input.createdAt.getTime(), byokPico: input.byokCostPico }
        : {}),
    },
  };
}

/**
 * The ledger is already correct here; a view that misses an entry because Redis failed is healed by
 * its next rebase, so a Redis outage must not dead-letter usage that is safely recorded. An entry the
 * store would refuse (it checks a whole batch before applying any) is left out and reported alone, so
 * it cannot hold back the rest of its batch.
 */
async function applyToView(deps: UsageConsumerDeps, updates: readonly ViewUpdate[]): Promise<void> {
  const valid = updates.filter(({ event, update }) => {
    try {
      checkAccountId(update.accountId);
      checkEntry(update.entry);
      return true;
    } catch (error) {
      notApplied(deps, event, error);
      return false;
    }
  });
  if (valid.length === 0) return;
  try {
    await deps.store.applyLedgerEntries(valid.map(({ update }) => update));
  } catch (error) {
    for (const { event } of valid) notApplied(deps, event, error);
  }
}

function notApplied(deps: UsageConsumerDeps, event: UsageEvent, error: unknown): void {
  deps.logger.warn(
    { err: error, accountId: event.input.accountId, eventId: event.input.eventId },
    "usage recorded but not applied to the hot view",
  );
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
    maxBatchSize: USAGE_CONSUMER_MAX_BATCH,
    batchHandler: usageBatchHandler(deps),
  });
}
