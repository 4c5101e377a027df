import type { Logger } from "@gw/logger";
import { silentLogger } from "@gw/logger";
import type { Admin } from "kafkajs";
import { createKafka } from "./client.js";

export interface TopicSpec {
  name: string;
  /** Default 1. Per-key order holds in any count: the key picks the partition. */
  partitions?: number;
  /** Default 1 (single-broker development and test clusters). */
  replicationFactor?: number;
  configs?: Record<string, string>;
}

export interface EnsureTopicsOptions {
  clientId?: string;
  logger?: Logger;
}

/**
 * Creates the topics that do not exist yet (existing ones are left as they are, whatever their
 * partition count) and waits until they have leaders, so producers and consumers can use them at
 * once. Returns the names it created.
 */
export async function ensureTopics(
  brokers: string[],
  topics: Array<TopicSpec | string>,
  options: EnsureTopicsOptions = {},
): Promise<string[]> {
  const kafka = createKafka({
    brokers,
    clientId: options.clientId ?? "gw-admin",
    logger: options.logger ?? silentLogger(),
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await ensureTopicsWith(admin, topics);
  } finally {
    await admin.disconnect();
  }
}

export async function ensureTopicsWith(admin: Admin, topics: Array<TopicSpec | string>): Promise<string[]> {
  const specs = topics.map((topic) => (typeof topic === "string" ? { name: topic } : topic));
  const existing = new Set(await admin.listTopics());
  const missing = specs.filter((spec) => !existing.has(spec.name));
  if (missing.length === 0) return [];
  // Another process may create the same topic between the listing and this call; kafkajs then
  // answers false instead of failing, which is what "ensure" means.
  await admin.createTopics({
    waitForLeaders: true,
    topics: missing.map((spec) => ({
      topic: spec.name,
      numPartitions: spec.partitions ?? 1,
      replicationFactor: spec.replicationFactor ?? 1,
      configEntries: Object.entries(spec.configs ?? {}).map(([name, value]) => ({ name, value })),
    })),
  });
  return missing.map((spec) => spec.name);
}
