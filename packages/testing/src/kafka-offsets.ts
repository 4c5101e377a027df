import { Kafka, logLevel } from "kafkajs";

/** A consumer group's progress on one topic, summed over its partitions. */
export interface GroupProgress {
  /** Messages the topic holds so far (the sum of the partitions' high watermarks). */
  published: bigint;
  /** Of those, how many the group has committed (a partition it never committed counts 0). */
  committed: bigint;
}

/**
 * Where a consumer group stands on a topic, from the broker itself: for a test that must not read an
 * effect before the group has handled every event (the gateway's consumers commit only after their
 * handler resolved).
 */
export async function groupProgress(
  brokers: string[],
  topic: string,
  groupId: string,
): Promise<GroupProgress> {
  const admin = new Kafka({ clientId: "gw-test-offsets", brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const high = await admin.fetchTopicOffsets(topic);
    const [own] = await admin.fetchOffsets({ groupId, topics: [topic] });
    const committedBy = new Map(
      (own?.partitions ?? []).map((entry) => [entry.partition, BigInt(entry.offset)]),
    );
    let published = 0n;
    let committed = 0n;
    for (const partition of high) {
      const end = BigInt(partition.high);
      const done = committedBy.get(partition.partition) ?? -1n;
      published += end;
      committed += done < 0n ? 0n : done > end ? end : done;
    }
    return { published, committed };
  } finally {
    await admin.disconnect();
  }
}
