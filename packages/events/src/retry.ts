import { type ConsumedMessage, deadLetterTopic, type MessageHandler } from "./bus.js";
import { isTransientFailure } from "./transient.js";

/** A subscription's side of deliverWithRetries. */
export interface RetryingSubscription {
  topic: string;
  groupId: string;
  /** Attempts before the message is dead-lettered; default 5. */
  maxAttempts?: number;
  /** Publishes the dead letter (`<topic>.dlq.<groupId>`, the error in `x-error`). */
  deadLetter(topic: string, key: string, value: Uint8Array, headers: Record<string, string>): void;
  /** False once the subscription is stopping: the message is then left undone, for redelivery. */
  running(): boolean;
}

/**
 * The per-message retry loop of the buses that run in this process (the in-process bus and the
 * embedded default's outbox; Kafka's consumer has its own, with heartbeats): attempts with a doubling
 * pause (20 ms up to 1 s), then the dead-letter topic. A failure that says a service the handler needs
 * is unreachable (`isTransientFailure`) is not counted: the message waits for the service instead of
 * being dead-lettered. True when the message is done with (handled or dead-lettered), false when the
 * subscription stopped first.
 */
export async function deliverWithRetries(
  message: ConsumedMessage,
  handler: MessageHandler,
  subscription: RetryingSubscription,
): Promise<boolean> {
  const maxAttempts = subscription.maxAttempts ?? 5;
  let failures = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      await handler(message);
      return true;
    } catch (error) {
      if (!isTransientFailure(error)) failures++;
      if (failures >= maxAttempts) {
        const reason = error instanceof Error ? error.message : String(error);
        subscription.deadLetter(
          deadLetterTopic(subscription.topic, subscription.groupId),
          message.key,
          message.value,
          { ...message.headers, "x-error": reason },
        );
        return true;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 10 * 2 ** Math.min(attempt, 10))));
      if (!subscription.running()) return false;
    }
  }
}
