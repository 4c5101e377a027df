export type { BackoffOptions } from "./backoff.js";
export { type ConsumerSettings, LINGER_MIN_BYTES } from "./consumer.js";
export { DEFAULT_PRODUCER, KafkaEventBus, type KafkaEventBusOptions } from "./kafka-bus.js";
export { BatchingPublisher, type PublisherOptions, type SendBatch } from "./publisher.js";
export { DiskSpool, type SpoolBatch, type SpoolOptions } from "./spool.js";
export { type EnsureTopicsOptions, ensureTopics, type TopicSpec } from "./topics.js";
export { tracedSubscription } from "./tracing.js";
