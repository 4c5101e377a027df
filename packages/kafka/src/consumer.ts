import {
  type ConsumedMessage,
  deadLetterTopic,
  isTransientFailure,
  type MessageHandler,
  type SubscribeOptions,
  type Subscription,
  subscriptionHandler,
} from "@gw/events";
import type { Logger } from "@gw/logger";
import { recordConsumedBatch, recordDeadLetter } from "@gw/metrics";
import type { ConsumerRunConfig, EachMessagePayload, Kafka } from "kafkajs";
import { type BackoffOptions, backoffDelay, sleep } from "./backoff.js";
import { batchRunner, type RetryingDelivery } from "./batch-consumer.js";
import { toConsumed } from "./messages.js";

export interface ConsumerSettings {
  /** Backoff between attempts of a failing handler. */
  retry: BackoffOptions;
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  /** Longest a fetch waits for data; it also bounds how long `stop()` waits for an idle fetch. */
  maxWaitTimeMs: number;
}

export interface ConsumerDeps {
  kafka: Kafka;
  logger: Logger;
  settings: ConsumerSettings;
  /** Writes a message to a dead-letter topic and resolves once the broker has it. */
  deadLetter(topic: string, message: ConsumedMessage, error: string): Promise<void>;
}

const DEFAULT_MAX_ATTEMPTS = 5;

/**
 * One consumer group member for one topic. Offsets are committed by hand, only after the handler
 * resolved (or after the message went to the dead-letter topic), so a crash re-delivers at most the
 * messages whose handlers had not finished: message by message for a `handler`, batch by batch for a
 * `batchHandler` (see batch-consumer.ts).
 */
export async function startConsumer(deps: ConsumerDeps, options: SubscribeOptions): Promise<Subscription> {
  const { kafka, settings } = deps;
  const logger = deps.logger.child({ topic: options.topic, groupId: options.groupId });
  const stopping = new AbortController();
  const consumer = kafka.consumer({
    groupId: options.groupId,
    sessionTimeout: settings.sessionTimeoutMs,
    heartbeatInterval: settings.heartbeatIntervalMs,
    ...fetchShape(settings, options),
  });
  consumer.on(consumer.events.CRASH, ({ payload }) =>
    logger.error({ err: payload.error, restart: payload.restart }, "consumer crashed"),
  );
  // kafkajs reports every processed batch (in eachMessage mode too) with the partition's lag after it.
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) =>
    recordConsumedBatch({
      topic: payload.topic,
      group: options.groupId,
      partition: payload.partition,
      size: payload.batchSize,
      offsetLag: Number(payload.offsetLag),
    }),
  );

  const deliver = retryingDelivery({ ...deps, logger, stopping: stopping.signal }, options);
  const chosen = subscriptionHandler(options);

  const handle = async (
    handler: MessageHandler,
    { topic, partition, message, heartbeat }: EachMessagePayload,
  ): Promise<void> => {
    const consumed = toConsumed(topic, partition, message);
    // Stopping: leave the message uncommitted; the group's next member starts from it.
    if (!(await deliver(consumed, handler, heartbeat))) return;
    const next = (BigInt(message.offset) + 1n).toString();
    await consumer.commitOffsets([{ topic, partition, offset: next }]);
  };

  // kafkajs ignores commitOffsets once its consumer is stopping, so stop() first lets the handlers
  // in flight finish and commit while it still runs, and only then disconnects.
  const inFlight = new Set<Promise<void>>();
  const track = async (work: () => Promise<void>): Promise<void> => {
    // Stopping: leave these messages uncommitted; the group's next member starts from them.
    if (stopping.signal.aborted) return;
    const handling = work();
    inFlight.add(handling);
    try {
      await handling;
    } finally {
      inFlight.delete(handling);
    }
  };

  const config: ConsumerRunConfig = { autoCommit: false };
  if (chosen.kind === "batch") {
    const runBatch = batchRunner({ logger, stopping: stopping.signal, deliver }, options, chosen.handler);
    // Without eachBatchAutoResolve: false, kafkajs would resolve a batch's last offset even when a
    // stop left part of it unhandled, and the next commit would skip those messages.
    config.eachBatchAutoResolve = false;
    config.eachBatch = (payload) => track(() => runBatch(payload));
  } else {
    const { handler } = chosen;
    config.eachMessage = (payload) => track(() => handle(handler, payload));
  }

  await consumer.connect();
  try {
    await consumer.subscribe({ topic: options.topic, fromBeginning: options.fromBeginning ?? true });
    await consumer.run(config);
  } catch (error) {
    await consumer.disconnect().catch(() => {});
    throw error;
  }

  let stopped: Promise<void> | undefined;
  return {
    stop: () => {
      stopping.abort();
      stopped ??= Promise.allSettled([...inFlight]).then(() => consumer.disconnect());
      return stopped;
    },
  };
}

/**
 * A lingering subscription asks the broker to answer a fetch only once `LINGER_MIN_BYTES` are ready or
 * its linger passed; others take what is there at once. Every fetch answered costs the consumer a
 * batch (a transaction, a hot-view apply, a recompute), so with Kafka's default of one byte a usage
 * consumer at a moderate rate handled an event or two per batch: at 1,000 req/s PostgreSQL saw 0.28
 * commits per request, 0.06 with a 100 ms linger (bench, 2026-11-27). 512 KiB is ~650 usage events
 * (about 800 bytes each on the wire): more than arrive in the usage consumers' linger at 1,000 req/s,
 * so there the linger sets the batch; at saturation the bytes do, and a batch's fixed writes (the
 * rollup and health rows it updates) are spread over that many events (docs/scaling.md).
 */
export const LINGER_MIN_BYTES = 512 * 1024;

function fetchShape(
  settings: ConsumerSettings,
  options: SubscribeOptions,
): { maxWaitTimeInMs: number; minBytes: number } {
  const linger = options.lingerMs ?? 0;
  return linger > 0
    ? { maxWaitTimeInMs: Math.min(linger, settings.maxWaitTimeMs), minBytes: LINGER_MIN_BYTES }
    : { maxWaitTimeInMs: settings.maxWaitTimeMs, minBytes: 1 };
}

function retryingDelivery(
  deps: ConsumerDeps & { stopping: AbortSignal },
  options: SubscribeOptions,
): RetryingDelivery {
  const { logger, settings, stopping } = deps;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  return async (message, handler, heartbeat) => {
    const { partition, offset } = message;
    // Only failures of the message itself count toward dead-lettering; one that says a service the
    // handler needs is down (PostgreSQL or Redis restarting) waits for it (`isTransientFailure`).
    let failures = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        await handler(message);
        return true;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (!isTransientFailure(error)) failures++;
        if (failures >= maxAttempts) {
          logger.error({ partition, offset, attempts: attempt, error: reason }, "dead-lettered");
          await deps.deadLetter(deadLetterTopic(options.topic, options.groupId), message, reason);
          recordDeadLetter("kafka", options.topic, options.groupId);
          return true;
        }
        logger.warn({ partition, offset, attempt, error: reason }, "handler failed; retrying");
        await sleep(backoffDelay(attempt, settings.retry), stopping);
        if (stopping.aborted) return false;
        await heartbeat();
      }
    }
  };
}
