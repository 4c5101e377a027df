import type { BatchHandler, ConsumedMessage, MessageHandler } from "./bus.js";

/** What a bus supplies to deliverBatch: its own per-message retry loop and its commit bookkeeping. */
export interface BatchDeliverySteps {
  /**
   * Delivers one message through `handler` with the bus's retries, dead-lettering it after the last
   * attempt. False when the subscription stopped before the message was done with.
   */
  deliverOne(message: ConsumedMessage, handler: MessageHandler): Promise<boolean>;
  /** The message is done with: its offset may be committed. Called in offset order. */
  markDone(message: ConsumedMessage): void;
  /** Told once per failed batch, before the message-by-message fallback (for logs). */
  batchFailed?(error: unknown, size: number): void;
}

/**
 * Runs one batch; the fallback for a failed batch lives here so every bus behaves alike. One attempt
 * for the whole batch, then each message alone (a batch of one) with the bus's usual retries: the
 * good messages commit and only a poison message reaches the dead-letter topic. A batch of one goes
 * straight to the per-message path so `maxAttempts` counts exactly as it does for a plain handler.
 * Returns false when stopped part-way; the messages marked done so far may still be committed.
 */
export async function deliverBatch(
  handler: BatchHandler,
  messages: readonly ConsumedMessage[],
  steps: BatchDeliverySteps,
): Promise<boolean> {
  if (messages.length === 0) return true;
  if (messages.length > 1) {
    try {
      await handler([...messages]);
      for (const message of messages) steps.markDone(message);
      return true;
    } catch (error) {
      steps.batchFailed?.(error, messages.length);
    }
  }
  const single: MessageHandler = (message) => handler([message]);
  for (const message of messages) {
    if (!(await steps.deliverOne(message, single))) return false;
    steps.markDone(message);
  }
  return true;
}

/** Splits a fetched run of messages into handler-sized batches, order kept. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const step = Math.max(1, Math.floor(size));
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += step) result.push(items.slice(start, start + step));
  return result;
}
