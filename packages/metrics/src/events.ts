import { Counter, Gauge, Histogram } from "prom-client";
import { FAST_BUCKETS, registry } from "./registry.js";

const publish = new Histogram({
  name: "gw_kafka_publish_duration_seconds",
  help: "One batch sent to Kafka until the broker acknowledged it, by outcome.",
  labelNames: ["outcome"] as const,
  buckets: FAST_BUCKETS,
  registers: [registry],
});

const published = new Counter({
  name: "gw_kafka_published_messages_total",
  help: "Messages the broker acknowledged.",
  registers: [registry],
});

/** Spools register a reader; the gauge sums them when scraped (nothing is done per event). */
const spools = new Set<() => number>();

new Gauge({
  name: "gw_kafka_spool_depth",
  help: "Events waiting in this process's on-disk spools for the broker.",
  registers: [registry],
  collect() {
    let depth = 0;
    for (const read of spools) depth += read();
    this.set(depth);
  },
});

const lag = new Gauge({
  name: "gw_kafka_consumer_lag",
  help: "Messages behind the partition's high watermark after the consumer's last batch.",
  labelNames: ["topic", "group", "partition"] as const,
  registers: [registry],
});

const batchSize = new Histogram({
  name: "gw_kafka_consumer_batch_size",
  help: "Messages per fetched batch a consumer processed.",
  labelNames: ["topic", "group"] as const,
  buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 5000],
  registers: [registry],
});

const deadLettered = new Counter({
  name: "gw_events_dead_lettered_total",
  help: "Messages moved to a dead-letter topic after their last failed attempt, by bus (kafka, outbox).",
  labelNames: ["bus", "topic", "group"] as const,
  registers: [registry],
});

const staleOutboxGroups = new Gauge({
  name: "gw_outbox_stale_groups",
  help: "Durable consumer groups of the embedded default's outbox not seen for OUTBOX_STALE_GROUP_AFTER_S: they no longer hold back pruning.",
  labelNames: ["topic", "group"] as const,
  registers: [registry],
});

export function recordPublish(seconds: number, messages: number, ok: boolean): void {
  publish.observe({ outcome: ok ? "ok" : "error" }, seconds);
  if (ok) published.inc(messages);
}

/** Adds a spool to the depth gauge; call the returned function when the spool closes. */
export function trackSpool(pending: () => number): () => void {
  spools.add(pending);
  return () => spools.delete(pending);
}

export interface BatchObservation {
  topic: string;
  group: string;
  partition: number;
  size: number;
  offsetLag: number;
}

export function recordConsumedBatch(batch: BatchObservation): void {
  const { topic, group } = batch;
  lag.set({ topic, group, partition: String(batch.partition) }, batch.offsetLag);
  batchSize.observe({ topic, group }, batch.size);
}

export function recordDeadLetter(bus: "kafka" | "outbox", topic: string, group: string): void {
  deadLettered.inc({ bus, topic, group });
}

/** The outbox's stale groups as its last prune found them (1 each; a group seen again drops out). */
export function recordStaleOutboxGroups(groups: readonly { topic: string; groupId: string }[]): void {
  staleOutboxGroups.reset();
  for (const group of groups) staleOutboxGroups.set({ topic: group.topic, group: group.groupId }, 1);
}
