/**
 * The event bus interface shared by the Kafka implementation (@gw/kafka) and the in-process one used
 * by the embedded default. Semantics both must honour (the contract suite checks them):
 *
 * - publish() never blocks the caller on the broker: messages are buffered and sent in batches;
 *   flush() resolves when everything published so far has been acknowledged.
 * - Messages with the same key keep their order for a consumer group.
 * - Delivery is at least once. A handler's message counts as consumed (offset committed) only after
 *   its promise resolves, so a handler commits its database transaction first, then returns.
 * - A handler that keeps failing for one message (a poison message) sends it to the dead-letter
 *   topic `<topic>.dlq.<groupId>` with the error in the `x-error` header, and the partition moves on.
 * - A batch handler's messages count as consumed only after it resolved for the whole batch. A failed
 *   batch is retried message by message (see deliverBatch), so the rules above hold per message.
 */
export interface BusMessage {
  topic: string;
  key: string;
  value: Uint8Array;
  headers: Record<string, string>;
}

export interface ConsumedMessage extends BusMessage {
  partition: number;
  offset: string;
}

export type MessageHandler = (message: ConsumedMessage) => Promise<void>;

/**
 * Handles several messages at once (one database transaction for all of them). Resolving means every
 * message of the batch is done; rejecting means none is, and the bus then delivers the batch's messages
 * one at a time to this same handler (as batches of one) so a poison message is dead-lettered alone.
 * Messages of one batch come from one partition, in offset order; the same event may occur twice.
 */
export type BatchHandler = (messages: ConsumedMessage[]) => Promise<void>;

interface SubscribeBase {
  topic: string;
  groupId: string;
  /** Where a group with no committed offset starts; default true (consumers must see every event). */
  fromBeginning?: boolean;
  /** Attempts per message before it is dead-lettered; default 5. */
  maxAttempts?: number;
  /** Most messages per batch handler call; default 500. */
  maxBatchSize?: number;
  /**
   * How long the bus may hold arriving events back to hand them over in larger batches, for consumers
   * whose cost is mostly per batch (a transaction, a recompute); default 0: as soon as they arrive.
   * Leave it 0 where a delay matters to a caller (a revoked key, a payment).
   */
  lingerMs?: number;
}

/** Exactly one of `handler` (message by message) and `batchHandler`. */
export type SubscribeOptions = SubscribeBase &
  ({ handler: MessageHandler; batchHandler?: never } | { batchHandler: BatchHandler; handler?: never });

export const DEFAULT_MAX_BATCH_SIZE = 500;

/** The handler a subscription runs, checked at run time too (JavaScript callers, spread options). */
export function subscriptionHandler(
  options: SubscribeOptions,
): { kind: "message"; handler: MessageHandler } | { kind: "batch"; handler: BatchHandler } {
  if (options.handler && options.batchHandler)
    throw new Error("subscribe takes either handler or batchHandler, not both");
  if (options.batchHandler) return { kind: "batch", handler: options.batchHandler };
  if (options.handler) return { kind: "message", handler: options.handler };
  throw new Error("subscribe needs a handler or a batchHandler");
}

export interface Subscription {
  /** Stops consuming; in-flight handlers finish and their offsets are committed first. */
  stop(): Promise<void>;
}

export interface EventPublisher {
  publish(topic: string, key: string, value: Uint8Array, headers?: Record<string, string>): void;
  flush(): Promise<void>;
  /** Messages published but not yet acknowledged by the broker (reported in metrics/readiness). */
  backlog(): number;
  /**
   * Resolves once every event published so far would survive a crash of this process: the embedded
   * default's PostgreSQL outbox (committed) or Kafka's on-disk journal (written to its spool file).
   * The edge waits for it before it completes a response. It never waits for a broker: a bus
   * without such a local step resolves at once or has no such method.
   */
  persisted?(): Promise<void>;
}

export interface EventSubscriber {
  subscribe(options: SubscribeOptions): Promise<Subscription>;
}

export interface EventBus extends EventPublisher, EventSubscriber {
  close(): Promise<void>;
}

export function deadLetterTopic(topic: string, groupId: string): string {
  return `${topic}.dlq.${groupId}`;
}
