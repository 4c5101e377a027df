import type { BusMessage, ConsumedMessage, EventBus, SubscribeOptions, Subscription } from "@gw/events";
import { deadLetterTopic } from "@gw/events";
import { type Logger, silentLogger } from "@gw/logger";
import { recordPublish, secondsSince, trackSpool } from "@gw/metrics";
import { withTraceHeaders } from "@gw/telemetry";
import { type Admin, type Kafka, type Message, Partitioners, type Producer } from "kafkajs";
import { type BackoffOptions, backoffDelay, sleep } from "./backoff.js";
import { createKafka } from "./client.js";
import { type ConsumerSettings, startConsumer } from "./consumer.js";
import { kafkaErrorType } from "./errors.js";
import { BatchingPublisher } from "./publisher.js";
import { DiskSpool } from "./spool.js";
import { ensureTopicsWith } from "./topics.js";
import { tracedSubscription } from "./tracing.js";

export interface KafkaEventBusOptions {
  brokers: string[];
  /** Default "model-gateway"; also names the spool file. */
  clientId?: string;
  logger?: Logger;
  producer?: {
    /** How long a partial batch waits before it is sent; default DEFAULT_PRODUCER.lingerMs. */
    lingerMs?: number;
    /** Default DEFAULT_PRODUCER.batchSize messages / 512 KiB per batch. */
    batchSize?: number;
    batchBytes?: number;
    /** Memory queue bound; default 10 000 events. */
    maxQueued?: number;
    /** Backoff between resends while the broker is unreachable; default 100 ms doubling to 5 s. */
    retry?: Partial<BackoffOptions>;
  };
  /** Overflow of the memory queue; without it, overflow is logged as lost events. */
  /**
   * Overflow of the memory queue. With `journal`, every event is written there first (a write-ahead
   * journal: `persisted()` resolves once it is in the file, so a process killed after a response
   * loses no usage; a restart with the same client id replays it).
   */
  spool?: { directory: string; maxBytes?: number; journal?: boolean };
  consumer?: Partial<ConsumerSettings>;
  /** How long close() waits for the backlog before spooling it; default 10 s. */
  closeTimeoutMs?: number;
}

const DEFAULT_SPOOL_BYTES = 256 * 1024 * 1024;

/**
 * The producer's batching unless configured: chosen by measurement (docs/scaling.md, "The usage
 * producer's linger and batch size", packages/kafka/scripts/measure-linger.mjs).
 */
export const DEFAULT_PRODUCER = { lingerMs: 20, batchSize: 500 } as const;

/** Answers meaning the broker lost this idempotent producer's state; only a new producer helps. */
const PRODUCER_STATE_ERRORS = new Set([
  "UNKNOWN_PRODUCER_ID",
  "OUT_OF_ORDER_SEQUENCE_NUMBER",
  "INVALID_PRODUCER_EPOCH",
  "INVALID_PRODUCER_ID_MAPPING",
]);

/**
 * The production event bus on kafkajs. Publishing is fire-and-forget into a batching publisher
 * (acks=all, idempotent producer, one batch in flight so order survives retries); consuming
 * commits each offset only after the handler resolved and dead-letters poison messages.
 */
export class KafkaEventBus implements EventBus {
  private readonly kafka: Kafka;
  private readonly logger: Logger;
  private producer: Producer;
  private readonly publisher: BatchingPublisher;
  private readonly consumerSettings: ConsumerSettings;
  private readonly retry: BackoffOptions;
  private readonly subscriptions = new Set<Subscription>();
  private readonly closing = new AbortController();
  private readonly untrackSpool: (() => void) | undefined;
  private producerConnected: Promise<void> | undefined;
  private admin: Promise<Admin> | undefined;

  constructor(private readonly options: KafkaEventBusOptions) {
    const clientId = options.clientId ?? "model-gateway";
    this.logger = (options.logger ?? silentLogger()).child({ component: "kafka-bus" });
    this.kafka = createKafka({ brokers: options.brokers, clientId, logger: this.logger });
    this.producer = this.createProducer();
    this.retry = { initialMs: 100, maxMs: 5000, ...options.producer?.retry };
    this.consumerSettings = {
      retry: { initialMs: 100, maxMs: 5000 },
      sessionTimeoutMs: 30_000,
      heartbeatIntervalMs: 3000,
      maxWaitTimeMs: 500,
      ...options.consumer,
    };
    const spool = options.spool
      ? new DiskSpool({
          directory: options.spool.directory,
          maxBytes: options.spool.maxBytes ?? DEFAULT_SPOOL_BYTES,
          name: clientId,
        })
      : undefined;
    // The depth is read when /metrics is scraped, not kept up to date per event.
    this.untrackSpool = spool ? trackSpool(() => spool.pending) : undefined;
    this.publisher = new BatchingPublisher({
      send: (messages) => this.sendBatch(messages),
      logger: this.logger,
      lingerMs: options.producer?.lingerMs ?? DEFAULT_PRODUCER.lingerMs,
      batchSize: options.producer?.batchSize ?? DEFAULT_PRODUCER.batchSize,
      batchBytes: options.producer?.batchBytes ?? 512 * 1024,
      maxQueued: options.producer?.maxQueued ?? 10_000,
      spool,
      journal: options.spool?.journal === true,
      retry: this.retry,
    });
  }

  publish(topic: string, key: string, value: Uint8Array, headers: Record<string, string> = {}): void {
    // The active span's traceparent rides along so the consumers' spans join the request's trace.
    this.publisher.publish({ topic, key, value, headers: withTraceHeaders(headers) });
  }

  flush(): Promise<void> {
    return this.publisher.flush();
  }

  /** Resolves once published events are in the on-disk journal (at once without one); never waits on the broker. */
  persisted(): Promise<void> {
    return this.publisher.persisted();
  }

  backlog(): number {
    return this.publisher.backlog();
  }

  /** Events refused because memory queue and spool were full (each was logged as an error). */
  dropped(): number {
    return this.publisher.dropped();
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    if (this.closing.signal.aborted) throw new Error("event bus is closed");
    await ensureTopicsWith(await this.connectedAdmin(), [deadLetterTopic(options.topic, options.groupId)]);
    const inner = await startConsumer(
      {
        kafka: this.kafka,
        logger: this.logger,
        settings: this.consumerSettings,
        deadLetter: (topic, message, error) => this.sendDeadLetter(topic, message, error),
      },
      tracedSubscription(options),
    );
    const subscription: Subscription = {
      stop: async () => {
        await inner.stop();
        this.subscriptions.delete(subscription);
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    // First, so a dead-letter write stuck on an unreachable broker gives up (its message stays
    // uncommitted) instead of holding the consumer's stop forever.
    this.closing.abort();
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.publisher.close(this.options.closeTimeoutMs ?? 10_000);
    this.untrackSpool?.();
    await this.producer.disconnect().catch(() => {});
    const admin = await this.admin?.catch(() => undefined);
    await admin?.disconnect().catch(() => {});
  }

  private async sendBatch(messages: BusMessage[]): Promise<void> {
    const startedAt = performance.now();
    try {
      await this.sendBatchOnce(messages);
      recordPublish(secondsSince(startedAt), messages.length, true);
    } catch (error) {
      recordPublish(secondsSince(startedAt), messages.length, false);
      const type = kafkaErrorType(error);
      if (type && PRODUCER_STATE_ERRORS.has(type)) await this.replaceProducer(type);
      throw error;
    }
  }

  /**
   * kafkajs never re-initialises an idempotent producer whose id the broker has forgotten (after
   * producer.id.expiration.ms of silence, or a broker that lost its data), so every resend would
   * fail the same way. A new producer gets a new id; the batch is then resent by the publisher.
   */
  private async replaceProducer(reason: string): Promise<void> {
    this.logger.warn({ reason }, "the broker no longer knows this producer; starting a new one");
    const old = this.producer;
    this.producer = this.createProducer();
    this.producerConnected = undefined;
    await old.disconnect().catch(() => {});
  }

  private async sendBatchOnce(messages: BusMessage[]): Promise<void> {
    await this.connectProducer();
    const byTopic = new Map<string, Message[]>();
    for (const message of messages) {
      const list = byTopic.get(message.topic) ?? [];
      byTopic.set(message.topic, list);
      list.push({ key: message.key, value: Buffer.from(message.value), headers: message.headers });
    }
    await this.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, list]) => ({ topic, messages: list })),
    });
  }

  /** Awaited by the consumer before it commits: the dead-letter copy must exist first. */
  private async sendDeadLetter(topic: string, message: ConsumedMessage, error: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.connectProducer();
        await this.producer.send({
          topic,
          acks: -1,
          messages: [
            {
              key: message.key,
              value: Buffer.from(message.value),
              headers: { ...message.headers, "x-error": error },
            },
          ],
        });
        return;
      } catch (sendError) {
        if (this.closing.signal.aborted) throw sendError;
        this.logger.warn(
          { err: sendError, topic, attempt },
          "cannot write to the dead-letter topic; retrying",
        );
        await sleep(backoffDelay(attempt, this.retry), this.closing.signal);
      }
    }
  }

  private createProducer(): Producer {
    return this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      // Named explicitly (the Java client's murmur2 partitioner): it is kafkajs' default anyway,
      // and naming it is what stops kafkajs printing its partitioner-change warning.
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: { initialRetryTime: 100, maxRetryTime: 1000, retries: 3 },
    });
  }

  private connectProducer(): Promise<void> {
    this.producerConnected ??= this.producer.connect().catch((error: unknown) => {
      this.producerConnected = undefined;
      throw error;
    });
    return this.producerConnected;
  }

  private connectedAdmin(): Promise<Admin> {
    this.admin ??= (async () => {
      const admin = this.kafka.admin();
      await admin.connect();
      return admin;
    })().catch((error: unknown) => {
      this.admin = undefined;
      throw error;
    });
    return this.admin;
  }
}
