import { type ConsumedMessage, deadLetterTopic, type SubscribeOptions, type Subscription } from "@gw/events";
import type { Logger } from "@gw/logger";
import type { EachMessagePayload, IHeaders, Kafka, KafkaMessage } from "kafkajs";
import { type BackoffOptions, backoffDelay, sleep } from "./backoff.js";

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
 * One consumer group member for one topic. Offsets are committed by hand, message by message, only
 * after the handler resolved (or after the message went to the dead-letter topic), so a crash
 * re-delivers at most the messages whose handlers had not finished.
 */
export async function startConsumer(deps: ConsumerDeps, options: SubscribeOptions): Promise<Subscription> {
  const { kafka, settings } = deps;
  const logger = deps.logger.child({ topic: options.topic, groupId: options.groupId });
  const stopping = new AbortController();
  const consumer = kafka.consumer({
    groupId: options.groupId,
    sessionTimeout: settings.sessionTimeoutMs,
    heartbeatInterval: settings.heartbeatIntervalMs,
    maxWaitTimeInMs: settings.maxWaitTimeMs,
  });
  consumer.on(consumer.events.CRASH, ({ payload }) =>
    logger.error({ err: payload.error, restart: payload.restart }, "consumer crashed"),
  );

  const handle = async ({ topic, partition, message, heartbeat }: EachMessagePayload): Promise<void> => {
    const consumed = toConsumed(topic, partition, message);
    const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    for (let attempt = 1; ; attempt++) {
      try {
        await options.handler(consumed);
        break;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (attempt >= maxAttempts) {
          logger.error(
            { partition, offset: message.offset, attempts: attempt, error: reason },
            "dead-lettered",
          );
          await deps.deadLetter(deadLetterTopic(options.topic, options.groupId), consumed, reason);
          break;
        }
        logger.warn(
          { partition, offset: message.offset, attempt, error: reason },
          "handler failed; retrying",
        );
        await sleep(backoffDelay(attempt, settings.retry), stopping.signal);
        // Stopping: leave the message uncommitted; the group's next member starts from it.
        if (stopping.signal.aborted) return;
        await heartbeat();
      }
    }
    const next = (BigInt(message.offset) + 1n).toString();
    await consumer.commitOffsets([{ topic, partition, offset: next }]);
  };

  // kafkajs ignores commitOffsets once its consumer is stopping, so stop() first lets the handlers
  // in flight finish and commit while it still runs, and only then disconnects.
  const inFlight = new Set<Promise<void>>();
  const eachMessage = async (payload: EachMessagePayload): Promise<void> => {
    // Stopping: leave this message uncommitted; the group's next member starts from it.
    if (stopping.signal.aborted) return;
    const handling = handle(payload);
    inFlight.add(handling);
    try {
      await handling;
    } finally {
      inFlight.delete(handling);
    }
  };

  await consumer.connect();
  try {
    await consumer.subscribe({ topic: options.topic, fromBeginning: options.fromBeginning ?? true });
    await consumer.run({ autoCommit: false, eachMessage });
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

function toConsumed(topic: string, partition: number, message: KafkaMessage): ConsumedMessage {
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key ? message.key.toString("utf8") : "",
    value: message.value ? new Uint8Array(message.value) : new Uint8Array(0),
    headers: headersToStrings(message.headers),
  };
}

function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers ?? {})) {
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value !== undefined) result[name] = value.toString();
  }
  return result;
}
