import { randomUUID } from "node:crypto";
import type { ConsumedMessage, EventPublisher, EventSubscriber, Subscription } from "./bus.js";

const SENTINEL_HEADER = "x-test-sentinel";

/** What a test saw on a dead-letter topic. */
export interface DeadLetterObserver {
  /** Dead letters seen so far (sentinels left out). */
  readonly letters: ConsumedMessage[];
  /**
   * Resolves once everything dead-lettered under `key` before this call has been seen: it publishes a
   * sentinel to the dead-letter topic under the same key (same partition, so after them) and waits
   * for it. "Nothing was dead-lettered" is then a fact, not the hope that a fixed wait was long enough
   * for a consumer group to join.
   */
  caughtUp(key: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Subscribes a fresh group to `topic` (a `deadLetterTopic(…)`) from its beginning. */
export async function observeDeadLetters(
  bus: EventPublisher & EventSubscriber,
  topic: string,
  groupId: string,
): Promise<DeadLetterObserver> {
  const letters: ConsumedMessage[] = [];
  const sentinels = new Set<string>();
  const subscription: Subscription = await bus.subscribe({
    topic,
    groupId,
    fromBeginning: true,
    handler: async (message) => {
      const sentinel = message.headers[SENTINEL_HEADER];
      if (sentinel) sentinels.add(sentinel);
      else letters.push(message);
    },
  });
  return {
    letters,
    async caughtUp(key, timeoutMs = 30_000) {
      const id = randomUUID();
      bus.publish(topic, key, new Uint8Array(), { [SENTINEL_HEADER]: id });
      await bus.flush();
      const deadline = Date.now() + timeoutMs;
      while (!sentinels.has(id)) {
        if (Date.now() > deadline)
          throw new Error(`the dead-letter observer of ${topic} did not see its sentinel in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    stop: () => subscription.stop(),
  };
}
