import { Kafka, logLevel } from "kafkajs";

/** Offsets by partition: the topic's end (high watermark) or what a group committed. */
export type PartitionOffsets = Record<number, number>;

/** A group reads every event when it committed at least this share of the topic (settled, fresh topic). */
const READ_ALL_SHARE = 0.99;

/**
 * The groups that consumed (fetched, decoded, committed) every usage event of the run: their committed
 * offsets add up to at least 99% of the topic's end offsets. The topic is the run's own (fresh, from
 * offset 0), so the end offsets are the events published; a group that commits no offset on it (-1)
 * read none of it. Only groups read from the broker count: nothing here is a list of names.
 */
export function groupsReadingAll(end: PartitionOffsets, groups: Record<string, PartitionOffsets>): string[] {
  const published = Object.values(end).reduce((sum, offset) => sum + offset, 0);
  if (published === 0) return [];
  return Object.entries(groups)
    .filter(([, committed]) => {
      const read = Object.entries(end).reduce(
        (sum, [partition, last]) => sum + Math.min(last, Math.max(0, committed[Number(partition)] ?? 0)),
        0,
      );
      return read >= published * READ_ALL_SHARE;
    })
    .map(([group]) => group)
    .sort();
}

/** The broker's consumer groups and their committed offsets on `topic`, and the topic's end offsets. */
export async function readGroups(
  brokers: string[],
  topic: string,
): Promise<{ end: PartitionOffsets; groups: Record<string, PartitionOffsets> }> {
  const admin = new Kafka({ clientId: "bench-groups", brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const end: PartitionOffsets = Object.fromEntries(
      (await admin.fetchTopicOffsets(topic)).map((entry) => [entry.partition, Number(entry.high)]),
    );
    const groups: Record<string, PartitionOffsets> = {};
    for (const { groupId } of (await admin.listGroups()).groups) {
      const offsets = await admin.fetchOffsets({ groupId, topics: [topic] });
      const partitions = offsets.find((entry) => entry.topic === topic)?.partitions ?? [];
      if (partitions.every((entry) => Number(entry.offset) < 0)) continue;
      groups[groupId] = Object.fromEntries(
        partitions.map((entry) => [entry.partition, Number(entry.offset)]),
      );
    }
    return { end, groups };
  } finally {
    await admin.disconnect();
  }
}
