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

export interface SubscribeOptions {
  topic: string;
  groupId: string;
  handler: MessageHandler;
  /** Where a group with no committed offset starts; default true (consumers must see every event). */
  fromBeginning?: boolean;
  /** Attempts per message before it is dead-lettered; default 5. */
  maxAttempts?: number;
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
