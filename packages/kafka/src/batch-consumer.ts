import {
  type BatchHandler,
  type ConsumedMessage,
  chunks,
  DEFAULT_MAX_BATCH_SIZE,
  deliverBatch,
  type MessageHandler,
  type SubscribeOptions,
} from "@gw/events";
import type { Logger } from "@gw/logger";
import type { EachBatchPayload } from "kafkajs";
import { toConsumed } from "./messages.js";

/** Delivers one message with retries and dead-lettering; false when stopping left it unfinished. */
export type RetryingDelivery = (
  message: ConsumedMessage,
  handler: MessageHandler,
  heartbeat: () => Promise<void>,
) => Promise<boolean>;

export interface BatchRunnerDeps {
  logger: Logger;
  stopping: AbortSignal;
  deliver: RetryingDelivery;
}

/**
 * The eachBatch callback for a batch handler. kafkajs hands over everything one fetch returned for a
 * partition (up to 1 MiB: thousands of small events), so it is cut into batches of at most
 * `maxBatchSize`. After each batch the offsets of its done messages are resolved and committed, then
 * the member heartbeats. Between batches it stops when the subscription stops or the partition was
 * re-assigned (stale), leaving the rest uncommitted for the next member.
 */
export function batchRunner(
  deps: BatchRunnerDeps,
  options: SubscribeOptions,
  handler: BatchHandler,
): (payload: EachBatchPayload) => Promise<void> {
  const maxBatchSize = options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
  return async (payload) => {
    const { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, uncommittedOffsets } = payload;
    const messages = batch.messages.map((message) => toConsumed(batch.topic, batch.partition, message));
    for (const part of chunks(messages, maxBatchSize)) {
      if (deps.stopping.aborted || !payload.isRunning() || payload.isStale()) return;
      const finished = await deliverBatch(handler, part, {
        deliverOne: (message, single) => deps.deliver(message, single, heartbeat),
        markDone: (message) => resolveOffset(message.offset),
        batchFailed: (error, size) =>
          deps.logger.warn(
            { err: error, partition: batch.partition, firstOffset: part[0]?.offset, size },
            "batch handler failed; handling its messages one by one",
          ),
      });
      // Also after a stop part-way: the messages done so far have their effects committed already.
      // With autoCommit off, only explicit offsets make kafkajs commit here.
      await commitOffsetsIfNecessary(uncommittedOffsets());
      if (!finished) return;
      await heartbeat();
    }
  };
}
